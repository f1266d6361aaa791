"""What every feature uses: roles, errors by audience, the audit trail, the
language middleware, shared form fields, and reading and writing workbooks."""
