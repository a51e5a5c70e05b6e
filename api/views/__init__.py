"""Views: one module per audience or resource; each validates, calls one service or selector, serializes."""
