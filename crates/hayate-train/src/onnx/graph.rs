//! Building an ONNX graph: initializers, nodes, inputs and outputs, then the `ModelProto`.

use super::proto::Msg;

/// ONNX `TensorProto.DataType` FLOAT.
pub const FLOAT: i64 = 1;
/// ONNX `TensorProto.DataType` INT64.
pub const INT64: i64 = 7;
/// The opset the exporter writes (all ops used exist unchanged since).
pub const OPSET: i64 = 13;
/// ONNX IR version matching opset 13.
pub const IR_VERSION: i64 = 7;

/// An attribute value.
#[derive(Clone, Debug)]
pub enum Attr {
    /// `INT`.
    Int(i64),
    /// `FLOAT`.
    Float(f32),
    /// `INTS`.
    Ints(Vec<i64>),
}

/// A graph under construction.
#[derive(Debug, Default)]
pub struct GraphBuilder {
    nodes: Vec<Msg>,
    initializers: Vec<Msg>,
    inputs: Vec<Msg>,
    outputs: Vec<Msg>,
    counter: usize,
}

/// A dimension of a declared input/output: fixed or symbolic (`batch_size`).
#[derive(Clone, Debug)]
pub enum Dim {
    /// A fixed size.
    Fixed(i64),
    /// A named dynamic size.
    Symbol(&'static str),
}

fn value_info(name: &str, elem: i64, dims: &[Dim]) -> Msg {
    let mut shape = Msg::new();
    for d in dims {
        let mut dm = Msg::new();
        match d {
            Dim::Fixed(v) => dm.int(1, *v),
            Dim::Symbol(s) => dm.string(2, s),
        };
        shape.msg(1, &dm);
    }
    let mut tensor = Msg::new();
    tensor.int(1, elem).msg(2, &shape);
    let mut ty = Msg::new();
    ty.msg(1, &tensor);
    let mut vi = Msg::new();
    vi.string(1, name).msg(2, &ty);
    vi
}

impl GraphBuilder {
    /// An empty graph.
    pub fn new() -> GraphBuilder {
        GraphBuilder::default()
    }

    /// Declares a float graph input.
    pub fn input(&mut self, name: &str, dims: &[Dim]) {
        self.inputs.push(value_info(name, FLOAT, dims));
    }

    /// Declares an int64 graph input.
    pub fn int_input(&mut self, name: &str, dims: &[Dim]) {
        self.inputs.push(value_info(name, INT64, dims));
    }

    /// Declares a float graph output.
    pub fn output(&mut self, name: &str, dims: &[Dim]) {
        self.outputs.push(value_info(name, FLOAT, dims));
    }

    /// Adds a float initializer `name` of shape `dims` and returns its name.
    pub fn float_init(&mut self, name: &str, dims: &[usize], data: &[f32]) -> String {
        let mut t = Msg::new();
        for &d in dims {
            t.int(1, d as i64);
        }
        t.int(2, FLOAT).string(8, name);
        let raw: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        t.bytes_field(9, &raw);
        self.initializers.push(t);
        name.to_string()
    }

    /// Adds a 1-D int64 initializer and returns its name.
    pub fn int_init(&mut self, name: &str, data: &[i64]) -> String {
        let mut t = Msg::new();
        t.int(1, data.len() as i64).int(2, INT64).string(8, name);
        let raw: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        t.bytes_field(9, &raw);
        self.initializers.push(t);
        name.to_string()
    }

    /// Adds a node with one output. The output is named `out` when given, else a fresh name;
    /// the name is returned.
    pub fn node(
        &mut self,
        op: &str,
        inputs: &[&str],
        attrs: &[(&str, Attr)],
        out: Option<&str>,
    ) -> String {
        self.counter += 1;
        let name = out.map_or_else(|| format!("{}_{}", op, self.counter), str::to_string);
        let mut n = Msg::new();
        for i in inputs {
            n.string(1, i);
        }
        n.string(2, &name)
            .string(3, &format!("{}_{}", op, self.counter))
            .string(4, op);
        for (k, v) in attrs {
            let mut a = Msg::new();
            a.string(1, k);
            match v {
                Attr::Float(f) => {
                    a.float(2, *f).int(20, 1);
                }
                Attr::Int(i) => {
                    a.int(3, *i).int(20, 2);
                }
                Attr::Ints(is) => {
                    for i in is {
                        a.int(8, *i);
                    }
                    a.int(20, 7);
                }
            }
            n.msg(5, &a);
        }
        self.nodes.push(n);
        name
    }

    /// Encodes the `ModelProto`.
    pub fn finish(self, graph_name: &str, doc: &str) -> Vec<u8> {
        let mut g = Msg::new();
        for n in &self.nodes {
            g.msg(1, n);
        }
        g.string(2, graph_name);
        for t in &self.initializers {
            g.msg(5, t);
        }
        g.string(10, doc);
        for i in &self.inputs {
            g.msg(11, i);
        }
        for o in &self.outputs {
            g.msg(12, o);
        }
        let mut opset = Msg::new();
        opset.string(1, "").int(2, OPSET);
        let mut m = Msg::new();
        m.int(1, IR_VERSION)
            .string(2, "hayate")
            .string(3, env!("CARGO_PKG_VERSION"))
            .msg(7, &g)
            .msg(8, &opset);
        m.into_bytes()
    }
}
