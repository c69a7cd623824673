"""The rng/ and games/ device tests on an emulated Cortex-M3: frozen into the qemu MPS2-AN385 image
(tools.firmware.build_arm_tests) with their fixtures as a ROMFS, each module run through the raw REPL
of a fresh qemu (tools.qemu). The same tests run under CPython and the unix port elsewhere."""
from __future__ import annotations

from tools import firmware, qemu


def test_rng_and_games_device_tests_pass_on_the_cortex_m3() -> None:
    modules = firmware.device_test_modules()
    results = qemu.run_device_tests(modules)
    assert set(results) == {p.stem for p in modules}
    for path in modules:
        got = results[path.stem]
        # every test of the module ran: its names are the module's own
        names = {line.split("(")[0][4:] for line in path.read_text().splitlines()
                 if line.startswith("def test_")}
        assert set(got) == names, path.stem
        # the only ones left out write a scratch directory, which a ROMFS-only port cannot hold
        nofs = qemu.needs_files(path.read_text())
        for name, result in got.items():
            if name in nofs:
                assert result == "NOFS", (path.stem, name, result)
            else:
                assert result == "PASS", (path.stem, name, result)
    ran = sum(r == "PASS" for got in results.values() for r in got.values())
    assert ran >= 60, ran  # 66 of 69 on 2026-11-23 (3 write files): a collapse of the runner shows here
