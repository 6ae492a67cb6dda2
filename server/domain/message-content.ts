/**
 * What a message's rendered HTML holds, for the `has` operator: a link, an inline image preview,
 * an uploaded file. The needles are markup only the renderer writes (user text has its quotes
 * and angle brackets escaped), except the upload path, which is compared with case everywhere so
 * that both databases and the event queues agree. Kept with each message as a bit set
 * (messages.content_flags, as upstream's has_link, has_image and has_attachment), set when the
 * message is sent or its content edited.
 */
export const CONTENT_FLAGS = {
  link: { bit: 1, needle: '<a ' },
  image: { bit: 2, needle: 'class="message_inline_image"' },
  attachment: { bit: 4, needle: '/user_uploads/' },
} as const;

export type ContentFlag = keyof typeof CONTENT_FLAGS;

/** The content_flags of rendered HTML. */
export function contentFlagsOf(html: string): number {
  let flags = 0;
  for (const { bit, needle } of Object.values(CONTENT_FLAGS))
    if (html.includes(needle)) flags |= bit;
  return flags;
}
