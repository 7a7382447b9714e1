"""Output files of every command that writes one are safe: written atomically, never onto an input file,
never through a symbolic link, never over an existing file without --force, and a batch whose header is
refused leaves an existing output as it was."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main
from gpu_advisor.engine.common import safe_files
from gpu_advisor.engine.common.errors import InputError

AS_OF = "2026-11-30"
WORKLOAD = "name: w\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 5000\n"
PROPOSAL = (
    f"workload:\n  {WORKLOAD.rstrip().replace(chr(10), chr(10) + '  ')}\nproposal: {{deployment: api}}\n"
)
PORTFOLIO = f"- {WORKLOAD.rstrip().replace(chr(10), chr(10) + '  ')}\n"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, [*args, "--as-of", AS_OF])


def files(tmp_path: Path) -> dict[str, Path]:
    paths = {
        "workload": tmp_path / "w.yaml",
        "proposal": tmp_path / "p.yaml",
        "portfolio": tmp_path / "b.yaml",
    }
    paths["workload"].write_text(WORKLOAD, encoding="utf-8")
    paths["proposal"].write_text(PROPOSAL, encoding="utf-8")
    paths["portfolio"].write_text(PORTFOLIO, encoding="utf-8")
    return paths


def commands(paths: dict[str, Path], output: str) -> list[list[str]]:
    """Every command that writes a file, writing ``output``."""
    workload, proposal, portfolio = (str(paths[k]) for k in ("workload", "proposal", "portfolio"))
    return [
        ["recommend", workload, "-o", output],
        ["recommend", workload, "--format", "json", "-o", output],
        ["check", proposal, "-o", output],
        ["sweep", workload, "--vary", "avg_output_tokens=100:200:100", "-o", output],
        ["batch", portfolio, "--jobs", "1", "-o", output],
        ["batch", portfolio, "--jobs", "1", "--summary", output],
    ]


def assert_refused(result: Result, text: str) -> None:
    assert result.exit_code == 2, result.output
    assert text in result.output
    assert "Traceback" not in result.output


def test_an_output_onto_its_own_input_is_refused_and_the_input_kept(tmp_path: Path) -> None:
    paths = files(tmp_path)
    before = {name: path.read_bytes() for name, path in paths.items()}
    for args in [
        ["recommend", str(paths["workload"]), "-o", str(paths["workload"])],
        ["recommend", str(paths["workload"]), "--force", "-o", str(tmp_path / "." / "w.yaml")],
        ["check", str(paths["proposal"]), "--force", "-o", str(paths["proposal"])],
        [
            "sweep",
            str(paths["workload"]),
            "--vary",
            "avg_output_tokens=100:200:100",
            "-o",
            str(paths["workload"]),
        ],
        ["batch", str(paths["portfolio"]), "--force", "-o", str(paths["portfolio"])],
        ["batch", str(paths["portfolio"]), "--summary", str(paths["portfolio"])],
        [
            "recommend",
            str(paths["workload"]),
            "--overrides",
            str(paths["proposal"]),
            "-o",
            str(paths["proposal"]),
        ],
    ]:
        assert_refused(invoke(*args), "is an input file of this command")
    os.link(paths["workload"], tmp_path / "hard-link.yaml")
    result = invoke("recommend", str(paths["workload"]), "--force", "-o", str(tmp_path / "hard-link.yaml"))
    assert_refused(result, "is an input file of this command")
    assert {name: path.read_bytes() for name, path in paths.items()} == before


def cli_reading(stdin: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """gpu-advisor in a process of its own whose standard input is redirected from ``stdin``."""
    with stdin.open("rb") as given:
        return subprocess.run(
            [sys.executable, "-m", "gpu_advisor.cli", *args],
            stdin=given,
            capture_output=True,
            text=True,
            cwd=cwd,
            check=False,
        )


def test_an_output_onto_the_file_standard_input_is_redirected_from_is_refused(tmp_path: Path) -> None:
    """``recommend - -o w.yaml --force < w.yaml`` replaced the workload with its memo: standard input, a
    regular file, is an input as a named one is (checked in a process of its own, whose standard input is
    the file)."""
    paths = files(tmp_path)
    before = {name: path.read_bytes() for name, path in paths.items()}
    os.link(paths["workload"], tmp_path / "hard-link.yaml")
    vary = ["--vary", "avg_output_tokens=100:200:100"]
    for stdin, args in [
        ("workload", ["recommend", "-", "-o", "w.yaml"]),
        ("workload", ["recommend", "-", "-o", "hard-link.yaml"]),
        ("workload", ["sweep", "-", *vary, "-o", "w.yaml"]),
        ("proposal", ["check", "-", "-o", "p.yaml"]),
        ("portfolio", ["batch", "-", "--input-format", "yaml", "-o", "b.yaml"]),
        ("portfolio", ["batch", "-", "--input-format", "yaml", "--summary", "b.yaml"]),
    ]:
        done = cli_reading(paths[stdin], [*args, "--force", "--as-of", AS_OF], tmp_path)
        output = args[args.index("-o") + 1] if "-o" in args else "b.yaml"
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        option = "--summary" if "--summary" in args else "-o/--output"
        assert done.stderr == (
            f"error: {option}: {output!r} is an input file of this command (standard input); "
            "write the output elsewhere\n"
        )
    assert {name: path.read_bytes() for name, path in paths.items()} == before
    # Standard input from another file (a copy) writes the output as before.
    shutil.copy(paths["workload"], tmp_path / "copy.yaml")
    done = cli_reading(tmp_path / "copy.yaml", ["recommend", "-", "-o", "w.yaml", "--force"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert paths["workload"].read_text(encoding="utf-8").startswith("# ")


def test_an_output_inside_a_directory_the_command_reads_is_refused_even_with_force(tmp_path: Path) -> None:
    """A policy directory, a directory of proposals and a base to compare with are read whole: a file
    written into one replaced a policy with --force, or was read as a proposal the next time."""
    paths = files(tmp_path)
    policies, proposals = tmp_path / "pol", tmp_path / "props"
    policies.mkdir()
    proposals.mkdir()
    policy = policies / "budget.yaml"
    policy.write_text("schema_version: 1\nfamily: ORG\nrules: []\n", encoding="utf-8")
    shutil.copy(paths["proposal"], proposals / "p.yaml")
    workload = str(paths["workload"])
    for args, directory in [
        (["recommend", workload, "--policy", str(policies), "--force", "-o", str(policy)], policies),
        (["check", str(proposals), "-o", str(proposals / "report.json")], proposals),
        (
            ["check", str(paths["proposal"]), "--compare-to", str(proposals), "-o", str(proposals / "r.yml")],
            proposals,
        ),
        (
            ["check", str(paths["proposal"]), "--policy", str(policies), "-o", str(policies / "r.json")],
            policies,
        ),
    ]:
        assert_refused(invoke(*args), f"is inside {str(directory)!r}, a directory this command reads")
    assert policy.read_text(encoding="utf-8") == "schema_version: 1\nfamily: ORG\nrules: []\n"
    assert sorted(p.name for p in proposals.iterdir()) == ["p.yaml"]
    # A file of a kind the directory is not read for may go there: a memo beside the policies.
    memo = policies / "memo.md"
    assert invoke("recommend", workload, "--policy", str(policies), "-o", str(memo)).exit_code == 0
    assert memo.read_text(encoding="utf-8").startswith("# GPU decision memo: w")


def test_a_chart_the_memo_file_would_replace_is_refused_before_any_is_written(tmp_path: Path) -> None:
    paths = files(tmp_path)
    charts = tmp_path / "charts"
    charts.mkdir()
    args = ["recommend", str(paths["workload"]), "--charts", str(charts)]
    result = invoke(*args, "-o", str(charts / "w-buy-versus-rent.png"))
    assert_refused(result, "error: --charts: ")
    assert "w-buy-versus-rent.png' is also the file of -o/--output" in result.output
    assert list(charts.iterdir()) == []


def test_an_existing_output_is_replaced_only_with_force(tmp_path: Path) -> None:
    paths = files(tmp_path)
    output = tmp_path / "out.txt"
    for args in commands(paths, str(output)):
        output.write_text("keep me\n", encoding="utf-8")
        assert_refused(invoke(*args), "exists; pass --force to replace it")
        assert output.read_text(encoding="utf-8") == "keep me\n"
        result = invoke(*args, "--force")
        assert result.exit_code == 0, (args, result.output)
        assert output.read_text(encoding="utf-8") != "keep me\n"
        output.unlink()
        assert invoke(*args).exit_code == 0, args  # a new file needs no --force
        output.unlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.yaml", "p.yaml", "w.yaml"]  # no temporary files


def test_an_output_that_is_a_symbolic_link_is_refused_even_with_force(tmp_path: Path) -> None:
    paths = files(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("not yours\n", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "nowhere.txt")
    for target in (link, dangling):
        for args in commands(paths, str(target)):
            assert_refused(invoke(*args, "--force"), "is a symbolic link")
    assert victim.read_text(encoding="utf-8") == "not yours\n"
    assert not (tmp_path / "nowhere.txt").exists()


def test_an_output_that_is_no_regular_file_is_refused_even_with_force(tmp_path: Path) -> None:
    """--force renamed the memo over a named pipe (and, run as root, over /dev/null): the pipe was gone."""
    paths = files(tmp_path)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for args in commands(paths, str(pipe)):
        assert_refused(invoke(*args, "--force"), "is not a regular file (a device, pipe or socket)")
    assert pipe.is_fifo()
    assert_refused(invoke("recommend", str(paths["workload"]), "-o", ""), "an empty path; name a file")


def test_charts_are_written_safely(tmp_path: Path) -> None:
    workload = str(EXAMPLES_DIR / "public-chat.yaml")
    charts = tmp_path / "charts"
    memo = tmp_path / "memo.md"
    assert invoke("recommend", workload, "--charts", str(charts), "-o", str(memo)).exit_code == 0
    first = (charts / "public-chat-buy-versus-rent.png").read_bytes()
    memo.unlink()
    assert_refused(invoke("recommend", workload, "--charts", str(charts), "-o", str(memo)), "--charts")
    assert not memo.exists()  # refused before anything was written
    assert invoke("recommend", workload, "--charts", str(charts), "-o", str(memo), "--force").exit_code == 0
    assert (charts / "public-chat-buy-versus-rent.png").read_bytes() == first
    (charts / "public-chat-buy-versus-rent.png").unlink()
    (charts / "public-chat-buy-versus-rent.png").symlink_to(tmp_path / "elsewhere.png")
    result = invoke("recommend", workload, "--charts", str(charts), "-o", str(tmp_path / "m2.md"), "--force")
    assert_refused(result, "is a symbolic link")
    assert not (tmp_path / "elsewhere.png").exists()
    linked_dir = tmp_path / "linked-charts"
    linked_dir.symlink_to(charts)
    result = invoke("recommend", workload, "--charts", str(linked_dir), "-o", str(tmp_path / "m3.md"))
    assert_refused(result, "is a symbolic link")


def test_a_batch_header_error_leaves_an_existing_output_untouched(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("name,model.nmae\nx,llama-3.1-8b\n", encoding="utf-8")
    output = tmp_path / "out.jsonl"
    output.write_text('{"line": 1}\n', encoding="utf-8")
    result = invoke("batch", str(bad), "--jobs", "1", "-o", str(output), "--force")
    assert result.exit_code == 2, result.output
    assert output.read_text(encoding="utf-8") == '{"line": 1}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv", "out.jsonl"]


def test_catalog_import_and_the_questionnaire_refuse_to_overwrite(tmp_path: Path) -> None:
    rates = Path(__file__).parent / "catalog_imports" / "rates.csv"
    output = tmp_path / "prices.yaml"
    output.write_text("as_of: 2026-01-01\n", encoding="utf-8")
    result = invoke("catalog", "import", str(rates), "--format", "csv", "-o", str(output))
    assert_refused(result, "exists; pass --force")
    assert output.read_text(encoding="utf-8") == "as_of: 2026-01-01\n"
    result = invoke("catalog", "import", str(rates), "--format", "csv", "-o", str(output), "--force")
    assert result.exit_code == 0, result.output
    saved = tmp_path / "answers.yaml"
    saved.write_text("keep\n", encoding="utf-8")
    # refused before the first question
    result = CliRunner().invoke(main, ["ask", "--save", str(saved)], input="")
    assert_refused(result, "--save")
    assert saved.read_text(encoding="utf-8") == "keep\n"


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = tmp_path / "memo.md"
    output.write_text("old\n", encoding="utf-8")

    def full_disk(source: str, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safe_files.os, "replace", full_disk)
    target = safe_files.check_output(str(output), "-o/--output", force=True)
    with pytest.raises(InputError, match="No space left on device"):
        safe_files.write_output(target, "new\n")
    assert output.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["memo.md"]


def test_an_output_created_meanwhile_is_not_overwritten_without_force(tmp_path: Path) -> None:
    output = tmp_path / "out.txt"
    target = safe_files.check_output(str(output), "-o/--output")
    output.write_text("someone else's\n", encoding="utf-8")
    with pytest.raises(InputError, match="exists"):
        safe_files.write_output(target, "mine\n")
    assert output.read_text(encoding="utf-8") == "someone else's\n"
    shutil.rmtree(tmp_path)


def test_two_outputs_of_one_command_that_are_one_file_are_refused_before_any_question(tmp_path: Path) -> None:
    """``ask --save a.yaml --memo a.yaml`` asked every question, then refused, calling a.yaml an input;
    ``batch -o x --summary x`` called the results file an input too."""
    save = str(tmp_path / "a.yaml")
    result = CliRunner().invoke(main, ["ask", "--save", save, "--memo", save], input="")
    assert_refused(
        result, f"--memo: '{save}' is also the file of --save; write each output to a file of its own"
    )
    assert "?" not in result.output  # no question asked
    paths = files(tmp_path)
    out = str(tmp_path / "out.csv")
    assert_refused(
        invoke("batch", str(paths["portfolio"]), "-o", out, "--summary", out),
        f"--summary: '{out}' is also the file of -o/--output; write each output to a file of its own",
    )


def test_a_full_disk_at_the_flush_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a full disk the flush fails, and closing the file flushes again and fails too: the temporary
    file was left beside the output ('.r.csv.cm2ehniq.tmp')."""
    output = tmp_path / "r.csv"
    target = safe_files.check_output(str(output), "-o/--output", force=False)

    def full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safe_files.os, "fsync", full)
    with (
        pytest.raises(InputError, match="No space left on device"),
        safe_files.pending_output(target) as pending,
    ):
        pending.handle.write("x" * 100)
        monkeypatch.setattr(pending.handle, "close", full)
    assert list(tmp_path.iterdir()) == []
    # A command that fails while writing removes its file the same way.
    with pytest.raises(RuntimeError), safe_files.pending_output(target) as pending:
        monkeypatch.setattr(pending.handle, "close", full)
        raise RuntimeError("stopped")
    assert list(tmp_path.iterdir()) == []


def test_a_file_replaced_with_force_keeps_its_permissions(tmp_path: Path) -> None:
    """A memo kept private (0600) became 0644 after -o ... --force."""
    output = tmp_path / "memo.md"
    output.write_text("old\n", encoding="utf-8")
    output.chmod(0o600)
    result = CliRunner().invoke(
        main, ["recommend", str(EXAMPLES_DIR / "prototype.yaml"), "-o", str(output), "--force"]
    )
    assert result.exit_code == 0, result.output
    assert output.read_text(encoding="utf-8").startswith("# GPU decision memo")
    assert output.stat().st_mode & 0o777 == 0o600


def test_a_failed_run_leaves_no_chart_directory_it_created(tmp_path: Path) -> None:
    """The chart files are checked, in a directory created for them, before the overrides are read: a
    run that stops on them removes the directories it made, and keeps one that was there."""
    workload = str(EXAMPLES_DIR / "public-chat.yaml")
    broken = tmp_path / "overrides.yaml"
    broken.write_text("not: [valid\n", encoding="utf-8")
    charts = tmp_path / "new" / "charts"
    result = invoke("recommend", workload, "--charts", str(charts), "--overrides", str(broken))
    assert_refused(result, "error: --overrides: ")
    assert not (tmp_path / "new").exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    assert_refused(
        invoke("recommend", workload, "--charts", str(kept), "--overrides", str(broken)), "--overrides"
    )
    assert kept.is_dir() and list(kept.iterdir()) == []


def test_ask_refuses_to_save_onto_the_file_its_answers_come_from(tmp_path: Path) -> None:
    """``ask --save answers.txt --force < answers.txt`` replaced the answers with the workload: ask reads
    standard input always, so a file redirected to it is one of its inputs, for --save and --memo."""
    answers = tmp_path / "answers.txt"
    answers.write_text("bot\n1\n\n\n5000\n300\n", encoding="utf-8")
    before = answers.read_bytes()
    for option in ("--save", "--memo"):
        done = cli_reading(answers, ["ask", option, "answers.txt", "--force"], tmp_path)
        assert done.returncode == 2, done.stderr
        assert done.stderr == (
            f"error: {option}: 'answers.txt' is an input file of this command (standard input); write the "
            "output elsewhere\n"
        )
    assert answers.read_bytes() == before
