import { fileProblem, sniff } from '../../nodes/shared/files';

/** One check of downloaded bytes for every node: what a file is comes from its first bytes. */
describe('downloaded files', () => {
	const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n');
	const xml = Buffer.from('\uFEFF<?xml version="1.0"?><factura/>');
	const html = Buffer.from('<!DOCTYPE html><html><body>Inicie sesión</body></html>');

	test('tells a PDF, XML, an HTML page and an empty answer apart, whatever the content-type says', () => {
		expect(sniff(pdf, 'application/octet-stream')).toBe('pdf');
		expect(sniff(xml)).toBe('xml');
		expect(sniff(Buffer.from('<comprobante/>'))).toBe('xml');
		expect(sniff(html, 'application/pdf')).toBe('html');
		expect(sniff(Buffer.from('<head></head><html>'))).toBe('html');
		expect(sniff(Buffer.from('<factura/>'), 'text/html')).toBe('html');
		expect(sniff(Buffer.alloc(0))).toBe('empty');
		expect(sniff(Buffer.from('{"error":"x"}'))).toBe('unknown');
	});

	test('says what arrived instead of the file asked for', () => {
		expect(fileProblem('pdf', pdf, 'application/pdf')).toBeUndefined();
		expect(fileProblem('xml', xml, 'application/xml')).toBeUndefined();
		expect(fileProblem('pdf', html, 'text/html')).toBe(
			'the answer is not a PDF (content-type text/html, starting with "<!DOCTYPE html><html")',
		);
		expect(fileProblem('xml', pdf, '')).toBe(
			'the answer is not XML (starting with "%PDF-1.4\\n1 0 obj<<>>")',
		);
		expect(fileProblem('xml', Buffer.alloc(0), 'application/xml')).toBe(
			'the answer is not XML (content-type application/xml, empty)',
		);
	});
});
