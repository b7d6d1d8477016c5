"""The game log for people and for JSON (the engine's narration, used by sessions)."""

from kubik.engine.narration import SideNames, entry_json, entry_text, narrate

__all__ = ["SideNames", "entry_json", "entry_text", "narrate"]
