"""Every benchmark `mol bench …` runs: runtime, models, serve, tui, memory, sessions, learning, specialists, genui.

They print JSON and compare against a baseline measured in the same run (ratios: these machines are noisy);
results go to bench/results/*.json. Standalone design studies (KV layout, harness, MCP, JSON schema) are
scripts in bench/ at the repository root. Tests check behaviour; these check speed and quality.
"""
