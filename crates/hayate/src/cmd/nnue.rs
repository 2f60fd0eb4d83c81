//! `hayate nnue info FILE`: what an `nn.bin` holds, told from its header and length;
//! `hayate nnue random SHAPE OUT`: a random net of a supported shape (for tests against the
//! reference engine).

use anyhow::Context;
use hayate_eval::nnue::shape::{Header, Identified, Shape, VERSION, identify};
use hayate_eval::nnue::{AnyNnue, RandomNetParams, random_net_bytes_of};
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
    /// Writes a random net of a shape Hayate evaluates (deterministic from the seed;
    /// the ranges of `RandomNetParams::for_shape`, or the Python generator's defaults with
    /// `--python-defaults`).
    Random {
        /// The shape, `[FEATURES_]HALFx2-H1-H2` (e.g. `1024x2-8-32` for HalfKP,
        /// `HalfKA_hm2_256x2-32-32`).
        shape: String,
        /// The output file.
        out: PathBuf,
        /// splitmix64 seed.
        #[arg(long, default_value_t = 20240601)]
        seed: u64,
        /// The Python generator's ranges (netA for 256x2-32-32 with the default seed).
        #[arg(long)]
        python_defaults: bool,
    },
}

/// Runs the subcommand.
pub fn run(a: Args) -> anyhow::Result<()> {
    match a.command {
        Command::Info { file } => info(&file),
        Command::Random {
            shape,
            out,
            seed,
            python_defaults,
        } => random(&shape, &out, seed, python_defaults),
    }
}

/// The shape `[FEATURES_]HALFx2-H1-H2` names, if Hayate evaluates it.
fn parse_shape(s: &str) -> anyhow::Result<Shape> {
    let shape = Shape::from_name(s).ok_or_else(|| {
        anyhow::anyhow!(
            "shape {s:?}: expected [FEATURES_]HALFx2-H1-H2, e.g. 1024x2-8-32 or HalfKA_hm2_256x2-32-32"
        )
    })?;
    anyhow::ensure!(
        shape.is_supported(),
        "{} is not a shape Hayate evaluates ({})",
        shape.name(),
        supported_list()
    );
    Ok(shape)
}

/// The supported shapes, `HalfKP 256x2-32-32, ...`.
fn supported_list() -> String {
    AnyNnue::SHAPES
        .iter()
        .map(Shape::name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn random(shape: &str, out: &std::path::Path, seed: u64, python: bool) -> anyhow::Result<()> {
    let shape = parse_shape(shape)?;
    let params = if python {
        RandomNetParams {
            seed,
            ..RandomNetParams::default()
        }
    } else {
        RandomNetParams::for_shape(&shape, seed)
    };
    let bytes = random_net_bytes_of(&shape, &params);
    std::fs::write(out, &bytes).with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "{} seed {seed}: {} bytes to {}",
        shape.name(),
        bytes.len(),
        out.display()
    );
    Ok(())
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
            if shape.is_supported() {
                println!("evaluated by hayate yes");
            } else {
                println!(
                    "evaluated by hayate no (HalfKP of the sizes {} only)",
                    supported_list()
                );
            }
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
