/**
 * An SRI receipt wrapped as the tools that save authorized receipts write it — the structures, with our own
 * receipt inside: the document extraction service's public parser (TaxoWS/sri-xml-2-json, its fixtures) writes
 * `<Authorization>` with the SRI's Spanish children, a file that starts with blank lines before its declaration,
 * and a CDATA whose receipt starts on a new line; the SRI's portal and most ERPs write `<autorizacion>` (some with
 * a declaration spaced as `<?xml version = '1.0' …?>`, some on one line with `<mensajes/>`); other tools
 * `<Autorizacion>`, the whole SOAP answer with their own prefixes, or the namespaced
 * `ns2:RespuestaAutorizacionComprobante` saved on its own. Used by test/sri/real-files.test.js and the real-n8n
 * suite (test/e2e/sri.test.mjs).
 */

const cdata = (receipt, lead = '') => `<![CDATA[${lead}${receipt}]]>`;

/**
 * @param {string} key the receipt's access key
 * @param {string} receipt the receipt's XML (with its declaration)
 * @returns {Array<{ name: string, xml: string }>}
 */
export function realAuthorizationFiles(key, receipt) {
	const bare = receipt.replace(/^<\?xml[^>]*\?>\s*/, '');
	return [
		{
			name: '<Authorization> (TaxoWS/sri-xml-2-json), blank lines before the declaration, the receipt on a new line in CDATA',
			xml: `
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <Authorization>
      <estado>AUTORIZADO</estado>
      <numeroAutorizacion>${key}</numeroAutorizacion>
      <fechaAutorizacion>2026-10-21T10:15:42-05:00</fechaAutorizacion>
      <ambiente>PRODUCCIÓN</ambiente>
      <comprobante>
          ${cdata(receipt, '\n          ')}
      </comprobante>
      <mensajes></mensajes>
  </Authorization>
    `,
		},
		{
			name: '<Authorization> with <mensajes/> on its own',
			xml: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Authorization>
<estado>AUTORIZADO</estado>
<numeroAutorizacion>${key}</numeroAutorizacion>
<fechaAutorizacion>2026-10-21T10:15:42-05:00</fechaAutorizacion>
<ambiente>PRODUCCIÓN</ambiente>
<comprobante>${cdata(receipt)}</comprobante>
<mensajes/>
</Authorization>
`,
		},
		{
			name: "<autorizacion> with a spaced declaration (<?xml version = '1.0' …?>), the receipt's own declaration spaced",
			xml: `<?xml version = '1.0' encoding = 'UTF-8'?>
<autorizacion>
   <estado>AUTORIZADO</estado>
   <numeroAutorizacion>${key}</numeroAutorizacion>
   <fechaAutorizacion>2026-10-21T10:15:42-05:00</fechaAutorizacion>
   <comprobante>${cdata(`<?xml version = '1.0' encoding = 'UTF-8'?>\n${bare}`)}</comprobante>
</autorizacion>`,
		},
		{
			name: '<autorizacion> on one line, <mensajes/>',
			xml: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><autorizacion><estado>AUTORIZADO</estado><numeroAutorizacion>${key}</numeroAutorizacion><fechaAutorizacion>2026-10-21T10:15:42-05:00</fechaAutorizacion><ambiente>PRODUCCIÓN</ambiente><comprobante>${cdata(receipt)}</comprobante><mensajes/></autorizacion>`,
		},
		{
			name: '<Autorizacion> with capitalized children, the receipt entity-escaped',
			xml: `<?xml version="1.0" encoding="UTF-8"?>
<Autorizacion>
  <Estado>AUTORIZADO</Estado>
  <NumeroAutorizacion>${key}</NumeroAutorizacion>
  <FechaAutorizacion>21/10/2026 10:15:42</FechaAutorizacion>
  <Ambiente>PRODUCCION</Ambiente>
  <Comprobante>${receipt.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</Comprobante>
  <Mensajes/>
</Autorizacion>`,
		},
		{
			name: 'ns2:RespuestaAutorizacionComprobante saved on its own',
			xml: `<?xml version="1.0" encoding="UTF-8"?>
<ns2:RespuestaAutorizacionComprobante xmlns:ns2="http://ec.gob.sri.ws.autorizacion"><claveAccesoConsultada>${key}</claveAccesoConsultada><numeroComprobantes>1</numeroComprobantes><autorizaciones><autorizacion><estado>AUTORIZADO</estado><numeroAutorizacion>${key}</numeroAutorizacion><fechaAutorizacion>2026-10-21T10:15:42.127-05:00</fechaAutorizacion><ambiente>PRODUCCIÓN</ambiente><comprobante>${cdata(receipt)}</comprobante><mensajes/></autorizacion></autorizaciones></ns2:RespuestaAutorizacionComprobante>`,
		},
		{
			name: 'the whole SOAP answer, other prefixes (S:, ns2:), RespuestaAutorizacionComprobante prefixed',
			xml: `<?xml version='1.0' encoding='UTF-8'?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><ns2:autorizacionComprobanteResponse xmlns:ns2="http://ec.gob.sri.ws.autorizacion"><ns2:RespuestaAutorizacionComprobante><claveAccesoConsultada>${key}</claveAccesoConsultada><numeroComprobantes>1</numeroComprobantes><autorizaciones><autorizacion><estado>AUTORIZADO</estado><numeroAutorizacion>${key}</numeroAutorizacion><fechaAutorizacion>2026-10-21T10:15:42.127-05:00</fechaAutorizacion><ambiente>PRODUCCIÓN</ambiente><comprobante>${cdata(receipt)}</comprobante><mensajes/></autorizacion></autorizaciones></ns2:RespuestaAutorizacionComprobante></ns2:autorizacionComprobanteResponse></S:Body></S:Envelope>`,
		},
		{
			name: 'a wrapper of an ERP around the authorization, the receipt inline',
			xml: `<?xml version="1.0" encoding="UTF-8"?>
<documento tipo="factura"><origen>ERP</origen><autorizacion><estado>AUTORIZADO</estado><numeroAutorizacion>${key}</numeroAutorizacion><fechaAutorizacion>2026-10-21T10:15:42-05:00</fechaAutorizacion><ambiente>PRODUCCIÓN</ambiente><comprobante>${bare}</comprobante></autorizacion></documento>`,
		},
	];
}
