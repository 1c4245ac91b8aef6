/** Why an HTTP request to serve failed, in the server's own words: its `{error: {message}}` JSON, else its text, else the status. */
export async function httpProblem(response: Response): Promise<string> {
  const text = (await response.text()).trim();
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string' && message) return message;
  } catch {
    // Not JSON: the text is the message.
  }
  return text || `${response.status} ${response.statusText}`.trim();
}
