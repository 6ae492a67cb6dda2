/** One submessage after the first, as the widgets fold it: who sent it and its JSON object. */
export interface WidgetEvent {
  senderId: number;
  data: Readonly<Record<string, unknown>>;
}

/** The JSON object a submessage's content holds, or null when it holds anything else. */
export function parseJsonObject(content: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(content);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
