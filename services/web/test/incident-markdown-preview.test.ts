import { parseIncidentMarkdown, parseInline } from '../src/pages/status-pages/incident-markdown-preview';

describe('the incident message preview (the safe Markdown subset)', () => {
  it('reads paragraphs, emphasis, strong, code, bullet and numbered lists, and fenced code', () => {
    expect(parseIncidentMarkdown('We are *looking* into **it**.\n\n- one `x`\n- two\n\n1. first\n\n```\n<b>raw</b>\n```')).toEqual([
      {
        kind: 'p',
        children: [
          { kind: 'text', text: 'We are ' },
          { kind: 'em', children: [{ kind: 'text', text: 'looking' }] },
          { kind: 'text', text: ' into ' },
          { kind: 'strong', children: [{ kind: 'text', text: 'it' }] },
          { kind: 'text', text: '.' },
        ],
      },
      {
        kind: 'ul',
        items: [
          [
            { kind: 'text', text: 'one ' },
            { kind: 'code', text: 'x' },
          ],
          [{ kind: 'text', text: 'two' }],
        ],
      },
      { kind: 'ol', items: [[{ kind: 'text', text: 'first' }]] },
      { kind: 'pre', text: '<b>raw</b>' },
    ]);
  });

  it('links only absolute http(s) addresses; any other target stays text', () => {
    expect(parseInline('[status](https://example.com/a) [x](javascript:alert(1)) <http://example.org>')).toEqual([
      { kind: 'link', href: 'https://example.com/a', children: [{ kind: 'text', text: 'status' }] },
      { kind: 'text', text: ' [x](javascript:alert(1)) ' },
      { kind: 'link', href: 'http://example.org', children: [{ kind: 'text', text: 'http://example.org' }] },
    ]);
  });

  it('keeps tags, headings and images as text, and honours a backslash escape', () => {
    expect(parseIncidentMarkdown('# Title <script>x</script> ![i](https://e.com/i.png) \\*not em\\*')).toEqual([
      {
        kind: 'p',
        children: [
          { kind: 'text', text: '# Title <script>x</script> !' },
          { kind: 'link', href: 'https://e.com/i.png', children: [{ kind: 'text', text: 'i' }] },
          { kind: 'text', text: ' *not em*' },
        ],
      },
    ]);
  });
});
