/** A `.wasm` file imported `with { type: "file" }`: its path (beside the bundle, or inside the single-file binary). */
declare module "*.wasm" {
  const path: string;
  export default path;
}

/** The sandbox runtime's seccomp helper, imported `with { type: "file" }` (sandbox-runtime.ts). */
declare module "*/apply-seccomp" {
  const path: string;
  export default path;
}
