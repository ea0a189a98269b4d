"""Validation: what runs after checking and before any back end.

The stage rules (`stages.py`) and the constant evaluator (`consteval.py`)
are target-independent facts about a checked module; back ends read them
from here instead of deciding them again.
"""
