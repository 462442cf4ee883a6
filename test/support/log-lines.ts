export type LogLine = Record<string, unknown>;

/** The JSON lines of a process's output so far; a line still being written (no newline yet) is left for later. */
export function jsonLogLines(output: string): LogLine[] {
  return output
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The JSON lines that name `requestId`. */
export function linesOfRequest(output: string, requestId: string): LogLine[] {
  return jsonLogLines(output).filter((line) => line.requestId === requestId);
}
