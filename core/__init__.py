"""What every app shares and no app owns: the refused-change error, the htmx page-or-partial
answer and the conditional-request (ETag/304) helpers. Imports nothing of the project."""
