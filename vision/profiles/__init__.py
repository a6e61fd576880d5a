"""Die profile data files shipped with the package (one JSON file per profile)."""
