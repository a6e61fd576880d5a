"""Last Bastion's tests (rulebook: ../shared/rules/last-bastion.fr.txt, FAQ included). The
helpers (setup events, cards, play/refused) are in ``tests/helpers/lastbastion.py``; the random
table of the property test in ``tests/helpers/lastbastion_driver.py``. The ``session`` fixture
(a fresh data directory, every installed game) is the root conftest's."""
