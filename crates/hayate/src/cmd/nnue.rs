//! `hayate nnue info FILE`: what an `nn.bin` holds, told from its header and length.

use anyhow::Context;
use hayate_eval::nnue::shape::{Header, Identified, Shape, VERSION, identify};
use std::io::Read;
use std::path::PathBuf;

/// Arguments of `hayate nnue`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// The architecture, layer sizes, hashes and size of an NNUE file, and whether Hayate
    /// evaluates it (reads the header only).
    Info {
        /// The file.
        file: PathBuf,
    },
}

/// Runs the subcommand.
pub fn run(a: Args) -> anyhow::Result<()> {
    match a.command {
        Command::Info { file } => info(&file),
    }
}

fn info(path: &std::path::Path) -> anyhow::Result<()> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let len = file.metadata()?.len() as usize;
    let mut head = Vec::new();
    file.take(1 << 16).read_to_end(&mut head)?;
    let header = Header::read(&head).with_context(|| {
        format!(
            "{}: {len} bytes, too short for an NNUE header",
            path.display()
        )
    })?;
    println!("file {} ({len} bytes)", path.display());
    let version = if header.version == VERSION {
        "ok"
    } else {
        "not an NNUE version"
    };
    println!("version 0x{:08X} ({version})", header.version);
    println!("text {}", header.text);
    match identify(&header, len) {
        Identified::Classic { shape, text_agrees } => {
            println!("architecture {}", shape.name());
            if !text_agrees {
                println!("note: sizes taken from the file's length; the text says otherwise");
            }
            println!(
                "inputs {} per perspective, layers {}x2 -> {} -> {} -> 1",
                shape.features.inputs(),
                shape.half,
                shape.h1,
                shape.h2
            );
            let agree =
                |found: u32, expected: u32| if found == expected { "ok" } else { "MISMATCH" };
            println!(
                "hash file 0x{:08X} ({}; feature transformer 0x{:08X}, network 0x{:08X})",
                header.hash,
                agree(header.hash, shape.file_hash()),
                shape.ft_hash(),
                shape.net_hash()
            );
            let evaluated = shape == Shape::HALFKP_256;
            println!(
                "evaluated by hayate {}",
                if evaluated {
                    "yes"
                } else {
                    "no (HalfKP 256x2-32-32 only)"
                }
            );
        }
        Identified::Sfnn => {
            println!("architecture SFNN layer stack (recognised by name; not evaluated by hayate)")
        }
        Identified::UnknownSizes(f) => println!(
            "architecture {} with sizes no known net has (the length fits none of them)",
            f.name()
        ),
        Identified::Unknown => println!("architecture unknown (no known feature set in the text)"),
    }
    Ok(())
}
