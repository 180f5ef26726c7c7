/**
 * A failure the user can fix, said in one line after `storefront: ` (exit 1, or 2 for a bad command line).
 * A file of its own: the command table loads its handlers lazily, and they throw it, so it cannot live in the
 * table without an import circle.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
