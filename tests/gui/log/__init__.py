"""Tests of the log pane and editor (gui/log/)."""
