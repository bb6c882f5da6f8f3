"""The table core (issue 27): one model and one write path for every game being played.

Engines (``games``) ← this core ← the products (tournament duels, casual tables, practice) ←
views and tasks. ``play.adapters`` holds one pure adapter per engine (no Django): it applies
commands and makes the view for a viewer from which every page, fragment and JSON is drawn.
"""
