"""Placeholder until its issue lands."""
from flask import Blueprint

chat = Blueprint("chat", __name__)
