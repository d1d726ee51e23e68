"""Inline generative-UI views in the chat."""

from app.widgets.genui.view import GenUIView, UIEvent, controller_handler

__all__ = ["GenUIView", "UIEvent", "controller_handler"]
