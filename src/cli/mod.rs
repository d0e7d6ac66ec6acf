//! The `sow` command line (the book's command-line chapter, and the JSON
//! contract for programs): one file per command, each holding its
//! arguments and what it does (and `converse`, the conversation mode
//! `moves --from -` turns into); `pick` resolves the variant and game the
//! arguments name, `args` holds the arguments several commands share, and
//! `output` how a command writes and fails. `main.rs` only calls [`main`].

mod analyze;
mod args;
mod check;
mod completions;
mod converse;
mod draw;
mod list;
mod man;
mod moves;
mod output;
mod perft;
mod pick;
mod play;
mod random;
mod run;
#[cfg(feature = "serve")]
mod serve;
mod show;
mod solve;

use std::io::{self, Write};

use clap::{Parser, Subcommand};

use output::{err_line, Checked, Failed};

/// sow: a rules language and interpreter for mancala games.
#[derive(Parser, Debug)]
#[command(name = "sow", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse and validate variant files, reporting every problem.
    Check(check::Check),
    /// Play a game, printing each position: the moves given, then the
    /// seats' players (a person types turns on standard input, one a line,
    /// with `undo`, `hint`, `save FILE` and `quit`; a computer answers).
    Play(play::Play),
    /// Draw a position as a picture (SVG, on standard output).
    Draw(draw::Draw),
    /// List every legal turn with the position it leads to.
    Moves(moves::Moves),
    /// Count whole-turn paths of a given length.
    Perft(perft::Perft),
    /// Play random games and summarise them.
    Random(random::Random),
    /// Solve a variant: the value of its start (or of a position) under
    /// perfect play, win, draw or loss and by how much, and each first
    /// turn's value.
    Solve(solve::Solve),
    /// Play many games and measure the variant: the first player's
    /// advantage, game lengths, branching, seeds conserved, and how often
    /// each rule and end condition fired (a rule that never fires is
    /// reported).
    Analyze(analyze::Analyze),
    /// Print the variant as one file: what it builds on merged in, its
    /// options set to the values given.
    Show(show::Show),
    /// Run a scripted game (TOML) and check its expectations.
    Run(run::Run),
    /// Serve the playground's JSON API (and its page) on this machine.
    #[cfg(feature = "serve")]
    Serve(serve::Serve),
    /// List the shipped variants: name and title, one a line.
    List,
    /// Print a completion script for a shell (`sow completions bash >
    /// ~/.local/share/bash-completion/completions/sow`).
    Completions(completions::Completions),
    /// Print the manual page, in roff (`sow man > sow.1; man ./sow.1`),
    /// or write it and a page for each command into a folder.
    Man(man::Man),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let stdout = io::stdout();
    let mut out = Checked::new(io::BufWriter::new(stdout.lock()));
    let result = match cli.command {
        Command::Check(c) => c.run(&mut out),
        Command::Play(c) => c.run(&mut out),
        Command::Draw(c) => c.run(&mut out),
        Command::Moves(c) => c.run(&mut out),
        Command::Perft(c) => c.run(&mut out),
        Command::Random(c) => c.run(&mut out),
        Command::Solve(c) => c.run(&mut out),
        Command::Analyze(c) => c.run(&mut out),
        Command::Show(c) => c.run(&mut out),
        Command::Run(c) => c.run(&mut out),
        #[cfg(feature = "serve")]
        Command::Serve(c) => c.run(&mut out),
        Command::List => list::list(&mut out),
        Command::Completions(c) => c.run(&mut out),
        Command::Man(c) => c.run(&mut out),
    };
    let _ = out.flush();
    if let Some(e) = out.error.take() {
        // Output lost (a full disk, say) is a failure; a closed pipe too,
        // but the reader that closed it wants no message.
        if e.kind() != io::ErrorKind::BrokenPipe {
            err_line!("error: cannot write the output: {e}");
        }
        return 1;
    }
    match result {
        Ok(()) => 0,
        Err(Failed::Input) => 1,
        Err(Failed::Usage) => 2,
    }
}
