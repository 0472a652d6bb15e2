"""Tests of the Video pane (gui/video/)."""
