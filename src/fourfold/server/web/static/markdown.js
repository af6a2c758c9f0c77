// A small Markdown reader for the rules texts: headings, paragraphs, lists, code blocks,
// **bold**, *italic* and `code`. Text is never parsed as HTML.
import {h} from './util.js';

function inline(text) {
  const out = [];
  const re = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|`[^`]+`)/g;
  let at = 0;
  let m;
  while ((m = re.exec(text))) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const t = m[0];
    // bold and italic may hold code: "**Ruling (...; option `start`).**"
    if (t.startsWith('**')) out.push(h('strong', {}, ...inline(t.slice(2, -2))));
    else if (t.startsWith('`')) out.push(h('code', {}, t.slice(1, -1)));
    else out.push(h('em', {}, ...inline(t.slice(1, -1))));
    at = m.index + t.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export function markdown(source) {
  const root = document.createDocumentFragment();
  const lines = source.split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    if (heading) {
      root.append(h(`h${Math.min(6, heading[1].length + 1)}`, {}, ...inline(heading[2])));
      i++;
      continue;
    }
    if (line.startsWith('    ') || line.startsWith('```')) {
      const fenced = line.startsWith('```');
      const code = [];
      if (fenced) i++;
      while (i < lines.length && (fenced ? !lines[i].startsWith('```') : (lines[i].startsWith('    ') || !lines[i].trim()))) {
        code.push(fenced ? lines[i] : lines[i].slice(4));
        i++;
      }
      if (fenced) i++;
      root.append(h('pre', {tabindex: '0'}, h('code', {}, code.join('\n').replace(/\s+$/, ''))));
      continue;
    }
    if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const list = h(ordered ? 'ol' : 'ul', {});
      while (i < lines.length && lines[i].trim()) {
        const item = lines[i].match(/^\s*([-*]|\d+\.)\s+(.*)$/);
        if (item) list.append(h('li', {}, ...inline(item[2])));
        else if (list.lastChild) list.lastChild.append(' ', ...inline(lines[i].trim()));
        i++;
      }
      root.append(list);
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^(#{1,4}\s|    |```)/.test(lines[i]) && !/^\s*([-*]|\d+\.)\s+/.test(lines[i])) {
      para.push(lines[i].trim());
      i++;
    }
    root.append(h('p', {}, ...inline(para.join(' '))));
  }
  return root;
}
