/** SSE is the legacy MCP transport; HTTP is the streamable HTTP transport that MCP clients now use. */
export enum McpTransportType {
  SSE = 'SSE',
  HTTP = 'HTTP',
}
