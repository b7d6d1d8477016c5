"""Warhammer Fantasy battles on the shared battle layer: regiments in ranks and files."""
