import { MAX_SEPARATE_PUSHES, renderPushes } from '../../../shared/notifications/push/pushTexts';

describe('renderPushes', () => {
  const items = (n: number) => Array.from({ length: n }, (_, index) => ({ title: `Title ${index + 1}`, body: `Body ${index + 1}` }));

  it.each([1, 2, MAX_SEPARATE_PUSHES])('%i due: one push each, as the producer wrote it', (n) => {
    expect(renderPushes('de', items(n))).toEqual(items(n).map((item, index) => ({ ...item, items: [index] })));
  });

  it.each([
    ['de' as const, '4 neue Benachrichtigungen', 'Title 1 · Title 2 · Title 3 · und 1 weitere'],
    ['en' as const, '4 new notifications', 'Title 1 · Title 2 · Title 3 · and 1 more'],
  ])('more than %s: one summary push in the member language (%s)', (language, title, body) => {
    expect(renderPushes(language, items(MAX_SEPARATE_PUSHES + 1))).toEqual([{ title, body, items: [0, 1, 2, 3] }]);
  });

  it('keeps a push to one line of bounded length, and no body as an empty one', () => {
    const [push] = renderPushes('en', [{ title: `A\nB\r\n${'x'.repeat(500)}`, body: null }]);
    expect(push?.title).toMatch(/^A B x+…$/);
    expect(push?.title).toHaveLength(120);
    expect(push?.body).toBe('');
  });
});
