/**
 * The HTML report (docs/guide/coverage-reports.md "HTML report"): self-contained pages, inline CSS and script, nothing
 * loaded. `renderRunHtml` draws one run (`run --html FILE`); `HtmlBatchWriter` writes a batch's
 * directory (`batch --html DIR`) from `renderRunHtml` and `renderBatchIndex`.
 */
export { renderRunHtml, type RunHtmlOptions } from './html/runPage.ts';
export { renderBatchIndex, indexRowOf, type BatchIndexRow, type BatchIndexOptions } from './html/batchIndex.ts';
export { HtmlBatchWriter, INDEX_ROWS_FILE, type HtmlBatchWriterOptions } from './html/batchHtmlWriter.ts';
export { htmlPageName } from './html/pageName.ts';
