"""Tests of the document (gui/document/)."""
