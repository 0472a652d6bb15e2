"""Tests of the timeline (gui/timeline/)."""
