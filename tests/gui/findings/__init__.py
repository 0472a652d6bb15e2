"""Tests of the Findings pane (gui/findings/)."""
