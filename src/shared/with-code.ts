/**
 * Zod check options that attach a stable customCode to the issue they raise (read back by
 * `issuesFromZod` on the server; the browser shows the message beside the field).
 */
export function withCode(
  customCode: string,
  message: string,
): { error: string; params: { customCode: string } } {
  return { error: message, params: { customCode } };
}
