"""Placeholder until its issue lands."""
from flask import Blueprint

mcp = Blueprint("mcp", __name__)
