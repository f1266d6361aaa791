"""The installable web app (issue 16.3): its manifest and its service worker,
both at the site's root so they reach every page."""
