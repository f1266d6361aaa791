"""Thin views: check permission, validate a form, call a service, render."""
