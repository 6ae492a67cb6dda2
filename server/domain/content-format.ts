/**
 * A message record carries both its Markdown source (`raw_content`) and its HTML
 * (`rendered_content`) until it reaches a client, which asked for one of them with
 * `apply_markdown`: GET /messages answers and event queues choose here, so they cannot disagree.
 */
export function inContentFormat(
  record: Record<string, unknown>,
  applyMarkdown: boolean,
): Record<string, unknown> {
  const { raw_content, rendered_content, ...rest } = record;
  return {
    ...rest,
    content: applyMarkdown ? rendered_content : raw_content,
    content_type: applyMarkdown ? 'text/html' : 'text/x-markdown',
  };
}
