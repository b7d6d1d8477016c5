"""Brawl's public procedures (imported one at a time, through ``PROCEDURES``)."""
