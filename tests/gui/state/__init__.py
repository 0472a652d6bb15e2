"""Tests of the State pane (gui/state/)."""
