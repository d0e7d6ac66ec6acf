//! The real `sow` binary, run as a user runs it.

use std::io::Write;
use std::process::{Child, Command, Stdio};

/// What a run of the binary did.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// `sow ARGS` started in the checkout, its standard input, output and
/// error piped: for a test that converses with it.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// `sow ARGS` in the checkout, with `input` on standard input (none: an
/// empty one); a panic fails the test.
pub fn sow_with(args: &[&str], input: &str) -> Run {
    let mut child = spawn(args);
    // (A command that reads nothing may have closed its input already.)
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    let run = Run {
        code: out.status.code().expect("an exit code, not a signal"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "sow {args:?} panicked:\n{}",
        run.stderr
    );
    run
}

/// Sends Ctrl-C (SIGINT) to a running `sow`, as a terminal would.
pub fn interrupt(child: &Child) {
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "SIGINT sent");
}

/// Waits for `child` to end, at most `secs` seconds (a failure: it
/// hangs); its status, and how long it took.
pub fn ended_within(
    child: &mut Child,
    secs: u64,
) -> (std::process::ExitStatus, std::time::Duration) {
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("a status") {
            return (status, started.elapsed());
        }
        assert!(
            started.elapsed().as_secs() < secs,
            "still running after {secs} s"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
