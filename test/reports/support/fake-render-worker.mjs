// A rendering thread for tests of delivery until the report content lands: the real task handler
// (dist/src/reports/render/render-protocol.js) over the doubles' documents (fake-documents.mjs): a page and a one-page PDF.
// A content field `fakeMode` steers it: 'fail' makes the render fail as a plain error, 'crash' ends the thread.
import { renderTaskHandler } from '../../../dist/src/reports/render/render-protocol.js';
import { fakeHtml, fakePdf } from './fake-documents.mjs';

export default renderTaskHandler({
  html(content) {
    if (content.fakeMode === 'crash') process.exit(70);
    if (content.fakeMode === 'fail') throw new Error('layout failed');
    return fakeHtml(content);
  },
  async pdf(content) {
    if (content.fakeMode === 'crash') process.exit(70);
    if (content.fakeMode === 'fail') throw new Error('font missing');
    return fakePdf(content);
  },
});
