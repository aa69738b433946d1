/**
 * The YAML parser (the `yaml` package) for the front matter of instruction rules, skills, commands
 * and agents. Loaded by the first file that has front matter: most sessions read none, and the
 * start bundle never holds it. The build (`scripts/build.ts`) bundles this module apart.
 */
export { parse, YAMLParseError } from "yaml";
