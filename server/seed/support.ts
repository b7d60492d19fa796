// The support questions, their answers and the errors that the demo's projects, datasets and experiments share.

export const QUESTIONS = [
  'How do I reset my password?', 'What is the refund policy for annual plans?', 'Can I export my data to CSV?',
  'Why was my card declined?', 'How do I invite a teammate?', 'Does the API support pagination?',
  'What regions do you host data in?', 'How do I rotate an API key?', 'Can I change my billing email?',
  'Is there an on-premise version?', 'How are rate limits calculated?', 'What does error 429 mean?',
  'How do I delete my account?', 'Can I use SSO with Okta?', 'Where can I find invoices?',
];
export const ANSWERS = [
  'Go to Settings → Security and choose "Reset password".', 'Annual plans can be refunded within 30 days.',
  'Yes: open the dataset and choose Export → CSV.', 'The bank declined the charge; try another card or contact your bank.',
  'Open Members and click "Invite"; they get an email.', 'Yes, list endpoints take limit and offset.',
  'US and EU.', 'Create a new key, update your clients, then revoke the old one.', 'Billing → Contact lets you change it.',
  'Yes, a self-hosted edition is available on the Enterprise plan.', 'Per API key, per minute, with bursts allowed.',
  'Too many requests: back off and retry after the Retry-After header.', 'Settings → Account → Delete account.',
  'Yes, SAML SSO works with Okta.', 'Billing → Invoices lists every invoice as PDF.',
];
export const ERRORS = [
  'RateLimitError: 429 Too Many Requests', 'TimeoutError: request took longer than 30s',
  'ValueError: could not parse model output as JSON', 'ConnectionError: upstream reset the connection',
];
