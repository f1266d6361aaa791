"""The installable web app, so a phone keeps working on the hall's bad
Wi-Fi: its manifest and its service worker, both at the site's root so they
reach every page."""
