// The Report as the wasm runtime returns it: the TypeScript mirror of
// `tpu_runtime::Report` (crates/tpu-runtime/src/report.rs). Keep the two in step.

export interface SourceSpan {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

export interface Diagnostic {
  kind: string;
  message: string;
  span: SourceSpan | null;
  traceback: string;
}

export interface OpRecord {
  name: string;
  op: { kind: string; [field: string]: unknown };
  input_shapes: number[][];
  output_shape: number[];
  device: string;
  backend: "reference" | "wgpu";
  kernel: string;
  kernel_language: string;
  line: number | null;
  /** Why a tpu op ran on the host reference instead (no accelerator kernel yet). */
  fallback: string | null;
}

export interface Report {
  stdout: string;
  diagnostics: Diagnostic[];
  ops: OpRecord[];
  backend: "reference" | "wgpu" | null;
  backend_device: string;
}
