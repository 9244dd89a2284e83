import { renderIncidentMarkdown as render } from './incident-markdown';

describe('renderIncidentMarkdown', () => {
  it('renders paragraphs, emphasis, lists and code', () => {
    expect(render('We are *looking* into **errors**.\n\nSecond paragraph.')).toBe(
      '<p>We are <em>looking</em> into <strong>errors</strong>.</p>\n<p>Second paragraph.</p>\n',
    );
    expect(render('- one\n- two\n\n1. first\n2. second')).toBe(
      '<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ol>\n<li>first</li>\n<li>second</li>\n</ol>\n',
    );
    expect(render('Run `curl -I` now')).toBe('<p>Run <code>curl -I</code> now</p>\n');
    expect(render('```\na < b\n```')).toBe('<pre><code>a &lt; b\n</code></pre>\n');
  });

  it('makes http and https links with rel="nofollow noopener"', () => {
    expect(render('[status](https://example.com/a?b=1&c=2)')).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener">status</a></p>\n',
    );
    expect(render('<http://example.com>')).toBe('<p><a href="http://example.com" rel="nofollow noopener">http://example.com</a></p>\n');
  });

  it.each([
    ['javascript:', '[x](javascript:alert(1))'],
    ['JaVaScRiPt: with an entity', '[x](jav&#x09;ascript:alert(1))'],
    ['data:', '[x](data:text/html;base64,PHNjcmlwdD4=)'],
    ['a relative path', '[x](/admin)'],
    ['a protocol-relative URL', '[x](//evil.example)'],
    ['mailto:', '[x](mailto:a@example.com)'],
  ])('makes no link of %s: the brackets stay text', (_what, source) => {
    const html = render(source);
    expect(html).not.toContain('<a');
    expect(html).toContain('[x]');
  });

  it('escapes raw HTML, script included', () => {
    expect(render('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
    expect(render('<img src=x onerror=alert(1)>')).toBe('<p>&lt;img src=x onerror=alert(1)&gt;</p>\n');
    expect(render('a <b onclick="x">bold</b> "quote" & \'apos\'')).toBe(
      "<p>a &lt;b onclick=&quot;x&quot;&gt;bold&lt;/b&gt; &quot;quote&quot; &amp; 'apos'</p>\n",
    );
  });

  it('shows what is outside the subset as text: headings, images, quotes, tables, rules', () => {
    expect(render('# Title')).toBe('<p># Title</p>\n');
    expect(render('> quoted')).toBe('<p>&gt; quoted</p>\n');
    expect(render('---')).toBe('<p>---</p>\n');
    expect(render('| a | b |\n|---|---|\n| 1 | 2 |')).not.toContain('<table');
    const image = render('![alt](https://example.com/x.png)');
    expect(image).not.toContain('<img');
    expect(image).toContain('!<a href="https://example.com/x.png" rel="nofollow noopener">alt</a>');
  });

  it('keeps an attribute-breaking URL inside its quotes', () => {
    const html = render('[x](https://example.com/"onmouseover="alert(1))');
    expect(html).not.toMatch(/" onmouseover=/);
    expect(html).not.toContain('"onmouseover="');
  });
});
