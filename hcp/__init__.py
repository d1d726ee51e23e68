"""HCP: the versioned TOML contract that configures one assistant."""

from hcp.errors import HCPError
from hcp.loader import HCP, AdapterRef, SlotConfig, load_hcp, load_profile, parse_hcp, profile_path

__all__ = ["HCP", "AdapterRef", "HCPError", "SlotConfig", "load_hcp", "load_profile", "parse_hcp", "profile_path"]
