"""The seeded walk's second phone (tests/web/test_walk.py): Attack on Titan's Titan player
commits its Action cards and takes its decisions on its own phone, opened from the role link the
host hands over («le joueur Titan choisit secrètement deux cartes Action»,
../shared/rules/attack-on-titan-last-stand.fr.txt). The walk offers, taps and scans that phone
as it does the host's; a game without a secret role has no other phone."""

from __future__ import annotations

from test_e2e import ApiHost


def other_phones(browser, url: str, game: str, viewport: dict) -> list:
    """The pages of the secret roles' phones of ``game`` once it is set up (the Titan's, opened
    from the link ``POST /api/role/titan`` gives the host), each at ``viewport``."""
    if game != "aot-last-stand":
        return []
    link = ApiHost(url)._post("api/role/titan", {})["link"]
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(url.rstrip("/") + link)
    page.wait_for_selector("#role:not([hidden])")
    return [page]
