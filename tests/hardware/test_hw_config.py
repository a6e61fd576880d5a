"""The TOML config: defaults, layering, origins, and clear messages for every kind of mistake."""

import hwtools  # noqa: F401  (puts the repository first on sys.path)

from companion import config


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_when_no_file(tmp_path):
    cfg = config.load([tmp_path / "absent.toml"])
    assert cfg["buttons"]["next"] == 17
    assert cfg.origin("buttons", "next") == "default"
    assert cfg.problems == [] and cfg.files == []


def test_a_later_file_wins_and_each_value_knows_its_line(tmp_path):
    system = write(tmp_path / "system.toml",
                   "[rfid]\nreader = \"mfrc522\"\n\n[buttons]\nnext = 5\n")
    user = write(tmp_path / "user.toml",
                 "[buttons]\n# mine\nnext = 6\n[general]\nlanguage = 'fr'\n")
    cfg = config.load([system, user])
    assert cfg["buttons"]["next"] == 6
    assert cfg.origin("buttons", "next") == f"{user}:3"
    assert cfg.origin("rfid", "reader") == f"{system}:2"
    assert cfg["general"]["language"] == "fr"
    described = "\n".join(cfg.describe())
    assert 'reader = "mfrc522"' in described and f"# {system}:2" in described


def test_typo_in_a_key_names_file_line_and_suggestion_and_the_rest_applies(tmp_path):
    path = write(tmp_path / "c.toml", "[speech]\nrate = 140\nvoluem = 0.5\nvoice = \"fr\"\n")
    cfg = config.load([path])
    assert cfg["speech"]["rate"] == 140 and cfg["speech"]["voice"] == "fr"
    assert cfg["speech"]["volume"] == 1.0
    [problem] = cfg.problem_texts()
    assert problem.startswith(f"{path}:3: unknown key 'voluem'")
    assert "did you mean 'volume'" in problem
    [french] = cfg.problem_texts("fr")
    assert french.startswith(f"{path}:3 : clé inconnue 'voluem' dans [speech] (vouliez-vous dire "
                             "'volume' ?) ; elle est ignorée")


def test_unknown_section_and_wrong_types_keep_defaults(tmp_path):
    path = write(tmp_path / "c.toml", "[buton]\nnext = 3\n[buttons]\nnext = 99\nundo = \"x\"\n"
                                      "pull_up = 1\nroll = false\n[camera]\nkind = \"usb\"\n")
    cfg = config.load([path])
    text = "\n".join(cfg.problem_texts())
    assert f"{path}:1: unknown section [buton] (did you mean 'buttons'?)" in text
    assert f"{path}:4: buttons.next = 99 is not a BCM GPIO number" in text
    assert f"{path}:5:" in text and f"{path}:6:" in text
    assert f"{path}:9: camera.kind = \"usb\" is not one of" in text
    assert cfg["buttons"]["next"] == 17 and cfg["buttons"]["roll"] is False
    assert f"{path}:6 : buttons.pull_up = 1 n'est pas true ou false ; la valeur par défaut " \
           "(pull_up = true) est gardée" in "\n".join(cfg.problem_texts("fr"))


def test_a_file_that_does_not_parse_is_skipped_with_its_line(tmp_path):
    broken = write(tmp_path / "broken.toml", "[speech]\nrate = 140\nvolume = = 2\n")
    good = write(tmp_path / "good.toml", "[general]\nlanguage = \"fr\"\n")
    cfg = config.load([broken, good])
    [problem] = cfg.problem_texts()
    assert problem.startswith(f"{broken}: ") and "line 3" in problem
    assert cfg["speech"]["rate"] == 160 and cfg["general"]["language"] == "fr"


def test_dotted_keys_and_env_file(tmp_path, monkeypatch):
    path = write(tmp_path / "env.toml", "speech.rate = 120\n")
    monkeypatch.setenv("COMPANION_CONFIG", str(path))
    assert config.default_files()[-1] == path
    cfg = config.load([path])
    assert cfg["speech"]["rate"] == 120 and cfg.origin("speech", "rate") == f"{path}:1"


def test_values_out_of_their_range_are_refused_one_line_each(tmp_path):
    path = write(tmp_path / "c.toml", "[speech]\nvolume = 3.5\nrate = 20\n[camera]\nfps = 0.0\n"
                                      "[rfid]\ni2c_address = 0x90\n")
    cfg = config.load([path])
    texts = cfg.problem_texts()
    assert texts[0] == f"{path}:2: speech.volume = 3.5 is not from 0.0 to 1.0; the default " \
                       "(volume = 1.0) is kept"
    assert len(texts) == 4 and all("\n" not in text for text in texts)
    assert cfg["speech"]["volume"] == 1.0 and cfg["speech"]["rate"] == 160
    assert cfg["camera"]["fps"] == 10.0 and cfg["rfid"]["i2c_address"] == 0x24
    assert "n'est pas entre 0.0 et 1.0" in cfg.problem_texts("fr")[0]


def test_a_pin_used_twice_or_by_the_readers_bus_is_refused(tmp_path):
    path = write(tmp_path / "c.toml", '[rfid]\nreader = "mfrc522"\n[leds]\nred = 10\ngreen = 9\n'
                                      "blue = 17\n[buttons]\nroll = 22\n")
    cfg = config.load([path])
    assert cfg.problem_texts() == [
        f"{path}:8: buttons.roll = 22: GPIO22 is already used by buttons.draw; this setting is "
        "ignored (not wired)",
        f"{path}:4: leds.red = 10: GPIO10 is already used by SPI0 (MFRC522); this setting is "
        "ignored (not wired)",
        f"{path}:5: leds.green = 9: GPIO9 is already used by SPI0 (MFRC522); this setting is "
        "ignored (not wired)",
        f"{path}:6: leds.blue = 17: GPIO17 is already used by buttons.next; this setting is "
        "ignored (not wired)"]
    assert [cfg["leds"][c] for c in ("red", "green", "blue")] == [False, False, False]
    assert cfg["buttons"]["draw"] == 22 and cfg["buttons"]["roll"] is False


def test_the_pn532_takes_the_i2c_pins_and_spi1_its_own(tmp_path):
    pn532 = config.load([write(tmp_path / "a.toml", '[rfid]\nreader = "pn532"\n[buttons]\n'
                                                    "next = 2\nundo = 10\n")])
    assert [p.params["setting"] for p in pn532.problems] == ["buttons.next = 2"]
    assert "I2C1 (PN532)" in pn532.problem_texts()[0] and pn532["buttons"]["undo"] == 10
    spi1 = config.load([write(tmp_path / "b.toml", '[rfid]\nreader = "mfrc522"\nspi_bus = 1\n')])
    assert [p.params["setting"] for p in spi1.problems] == ["buttons.next = 17"]  # SPI1 CE1
    assert config.load([]).problems == []  # the defaults work together


def test_companion_config_exits_non_zero_on_a_pin_conflict(tmp_path, capsys):
    from companion.cli import main

    path = write(tmp_path / "c.toml", '[rfid]\nreader = "mfrc522"\n[leds]\nred = 10\n')
    assert main(["config", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "GPIO10 is already used by SPI0 (MFRC522)" in err


def test_the_sample_config_in_the_docs_is_the_defaults():
    import re
    import tomllib
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "hardware.md").read_text()
    section = docs[docs.index("## Config"):]
    sample = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    assert tomllib.loads(sample) == config.DEFAULTS
