/** The demo organization's conversations: believable team chat with the markup clients render. */

export const CHATTER_TOPICS: [string, string][] = [
  ['general', 'lunch'],
  ['general', 'weekend plans'],
  ['engineering', 'build times'],
  ['engineering', 'code review'],
  ['welcome', 'introductions'],
  ['design', 'colour palette'],
  ['general', 'office move'],
  ['engineering', 'flaky tests'],
];

export const CHATTER_LINES = [
  'Sounds good to me.',
  'I can take that one.',
  'Has anyone looked at this since Monday?',
  "Agreed, let's keep it simple :thumbs_up:",
  "I'll write it up in the doc after the meeting.",
  'Quick update: done on my side.',
  'Can we push this to tomorrow? Today is packed.',
  'Good point. I had not thought about the mobile layout.',
  '+1, ship it :rocket:',
  'Let me check and get back to you.',
  'I measured it again: **about 20% faster** now.',
  "Is there a ticket for this? I'd like to follow along.",
  'The old behaviour was confusing; the new one is much clearer.',
  'Thanks, that helps a lot :smile:',
  "I'm around until 6 if anyone wants to pair.",
  "Let's decide on Thursday, with everyone in the room.",
  'Done. Please have a look when you have a minute.',
  'I left two small comments, otherwise it looks great.',
  'Coffee first :coffee:',
  "Noted, I'll update the checklist.",
  'The numbers look fine, but I want one more run overnight.',
  "That's a question for @**Iago**, I think.",
  'Nice work, everyone :tada:',
];

export const DIRECT: { from: string; to: string[]; content: string }[] = [
  {
    from: 'othello',
    to: ['hamlet'],
    content: 'Hey Hamlet, do you have a minute to look at my review?',
  },
  { from: 'hamlet', to: ['othello'], content: 'Sure, after lunch. Which one?' },
  {
    from: 'othello',
    to: ['hamlet'],
    content: "The one about the unread counts. It's small, promise :smile:",
  },
  {
    from: 'cordelia',
    to: ['hamlet', 'iago'],
    content: 'Are we still on for the planning session at 3?',
  },
  { from: 'iago', to: ['hamlet', 'cordelia'], content: 'Yes, same room as last time.' },
  {
    from: 'desdemona',
    to: ['hamlet'],
    content: 'Thanks for covering the release notes last week. They read really well.',
  },
  {
    from: 'iago',
    to: ['hamlet'],
    content: 'Can you send me the benchmark figures when you have them?',
  },
  {
    from: 'shiva',
    to: ['hamlet'],
    content: 'Reminder: the moderation guidelines doc needs your comments by Friday.',
  },
];

export const SCRIPTED: { from: string; stream: string; topic: string; content: string }[] = [
  {
    from: 'desdemona',
    stream: 'announce',
    topic: 'welcome to Parley',
    content:
      'Welcome to **Parley Demo**! :wave:\n\nA few pointers:\n- #**general** is for everyone\n- #**engineering** is where we build things\n- #**welcome** can be read by anyone on the web',
  },
  {
    from: 'iago',
    stream: 'announce',
    topic: 'maintenance window',
    content:
      'Heads up: the staging server restarts on **Saturday at 10:00 UTC**. Expect ~15 minutes of downtime.',
  },
  {
    from: 'hamlet',
    stream: 'engineering',
    topic: 'release 1.2',
    content:
      'Release checklist for 1.2:\n1. Freeze the branch\n2. Run the full test suite\n3. Tag and publish\n4. Announce in #**announce>welcome to Parley**',
  },
  {
    from: 'othello',
    stream: 'engineering',
    topic: 'release 1.2',
    content:
      "The migration is ready. Here is the part I am least sure about:\n```sql\nALTER TABLE messages ADD COLUMN topic_key text NOT NULL DEFAULT '';\nCREATE INDEX messages_stream_topic ON messages (stream_id, topic_key, id);\n```",
  },
  {
    from: 'iago',
    stream: 'engineering',
    topic: 'release 1.2',
    content:
      "> The migration is ready.\n\nLooks right. On PostgreSQL it takes a lock, so let's run it in the maintenance window.",
  },
  {
    from: 'shiva',
    stream: 'engineering',
    topic: 'release 1.2',
    content:
      '@**King Hamlet** can you confirm the changelog is final? I want to send it out today.',
  },
  {
    from: 'cordelia',
    stream: 'design',
    topic: 'new sidebar',
    content:
      'First pass at the new sidebar: unread counts move to the right edge and the stream colour becomes a small swatch. Feedback welcome!',
  },
  {
    from: 'desdemona',
    stream: 'design',
    topic: 'new sidebar',
    content:
      'Love it :heart: One thing: can the topic list be indented a bit more, so it reads as a tree?',
  },
  {
    from: 'hamlet',
    stream: 'design',
    topic: 'new sidebar',
    content:
      'Agreed with Desdemona. Also, the focus ring on the active stream is hard to see in dark mode.',
  },
  {
    from: 'cordelia',
    stream: 'design',
    topic: 'new sidebar',
    content: "@**King Hamlet** good catch, I'll bump the contrast. Updated mockup tomorrow.",
  },
  {
    from: 'othello',
    stream: 'general',
    topic: 'lunch',
    content: "Pizza today? :pizza: I'll order at 12:15.",
  },
  { from: 'shiva', stream: 'general', topic: 'lunch', content: 'Count me in, vegetarian please.' },
  {
    from: 'iago',
    stream: 'general',
    topic: 'team offsite',
    content:
      '@**all** the offsite is confirmed for the 14th. Please reply here with any dietary requirements.',
  },
  {
    from: 'polonius',
    stream: 'general',
    topic: 'team offsite',
    content: 'Neither a borrower nor a lender be, but I will gladly share a car to the venue.',
  },
  {
    from: 'hamlet',
    stream: 'welcome',
    topic: 'introductions',
    content:
      'Hello, web! This stream is readable without an account. Parley speaks the Zulip API, so existing apps work with it.',
  },
  {
    from: 'othello',
    stream: 'engineering',
    topic: 'flaky tests',
    content:
      'Found it: the long-poll test assumed events arrive in one batch. Fixed with `await waitForEvent(...)`.',
  },
  {
    from: 'hamlet',
    stream: 'engineering',
    topic: 'flaky tests',
    content:
      'Nice. Inline code like `queue_id` and math like $$e^{i\\pi} + 1 = 0$$ render fine now too.',
  },
];
