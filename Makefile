.PHONY: run test lint
run:
	./dev run
test:
	./dev test
lint:
	.venv/bin/python -m ruff check .
	.venv/bin/python -m ruff format --check .
	.venv/bin/lint-imports
