import {
	DEFAULT_XML_LIMITS,
	SRI_RECEIPT_MAX_BYTES,
	XmlError,
	attribute,
	child,
	childText,
	children,
	descendants,
	parseXml,
	toJson,
	withUtf8Declaration,
	xmlText,
} from '../../nodes/shared/xml';

/**
 * The package's one XML reader, for XML from strangers: SRI receipts and authorization answers, SAT SOAP answers
 * and CFDIs. Samples follow the element names of the SRI's receipt schemas (factura 1.1.0) and of the SAT's
 * CFDI 4.0 and consultation service; the hostile inputs are the classic ones.
 */

const FACTURA = `<?xml version="1.0" encoding="UTF-8"?>
<factura id="comprobante" version="1.1.0">
	<infoTributaria>
		<ambiente>1</ambiente>
		<tipoEmision>1</tipoEmision>
		<razonSocial>Distribuidora Andina S.A.</razonSocial>
		<nombreComercial>Café &amp; Cacao del Austro</nombreComercial>
		<ruc>1792146739001</ruc>
		<claveAcceso>3103202601179214673900110010010000001231234567816</claveAcceso>
		<codDoc>01</codDoc>
		<estab>001</estab>
		<ptoEmi>001</ptoEmi>
		<secuencial>000000123</secuencial>
		<dirMatriz>Av. Amazonas N34-120, Quito</dirMatriz>
	</infoTributaria>
	<infoFactura>
		<fechaEmision>31/03/2026</fechaEmision>
		<tipoIdentificacionComprador>04</tipoIdentificacionComprador>
		<razonSocialComprador>Comercial Ñandú Cía. Ltda.</razonSocialComprador>
		<identificacionComprador>1790016919001</identificacionComprador>
		<totalSinImpuestos>150.00</totalSinImpuestos>
		<totalDescuento>0.00</totalDescuento>
		<totalConImpuestos>
			<totalImpuesto>
				<codigo>2</codigo>
				<codigoPorcentaje>4</codigoPorcentaje>
				<baseImponible>150.00</baseImponible>
				<valor>22.50</valor>
			</totalImpuesto>
		</totalConImpuestos>
		<propina>0.00</propina>
		<importeTotal>172.50</importeTotal>
		<moneda>DOLAR</moneda>
		<pagos><pago><formaPago>20</formaPago><total>172.50</total></pago></pagos>
	</infoFactura>
	<detalles>
		<detalle>
			<codigoPrincipal>CAF-01</codigoPrincipal>
			<descripcion>Café de Loja, 500 g</descripcion>
			<cantidad>10</cantidad>
			<precioUnitario>10.00</precioUnitario>
			<descuento>0.00</descuento>
			<precioTotalSinImpuesto>100.00</precioTotalSinImpuesto>
			<impuestos><impuesto><codigo>2</codigo><codigoPorcentaje>4</codigoPorcentaje><tarifa>15</tarifa><baseImponible>100.00</baseImponible><valor>15.00</valor></impuesto></impuestos>
		</detalle>
		<detalle>
			<codigoPrincipal>CAC-02</codigoPrincipal>
			<descripcion>Cacao "Nacional" &lt;fino de aroma&gt;</descripcion>
			<cantidad>5</cantidad>
			<precioUnitario>10.00</precioUnitario>
			<descuento>0.00</descuento>
			<precioTotalSinImpuesto>50.00</precioTotalSinImpuesto>
			<impuestos><impuesto><codigo>2</codigo><codigoPorcentaje>4</codigoPorcentaje><tarifa>15</tarifa><baseImponible>50.00</baseImponible><valor>7.50</valor></impuesto></impuestos>
		</detalle>
	</detalles>
	<infoAdicional>
		<campoAdicional nombre="Email">compras@nandu.ec</campoAdicional>
	</infoAdicional>
</factura>`;

const escapeText = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const autorizacion = (comprobante) => `<?xml version="1.0" encoding="UTF-8"?>
<autorizacion>
	<estado>AUTORIZADO</estado>
	<numeroAutorizacion>3103202601179214673900110010010000001231234567816</numeroAutorizacion>
	<fechaAutorizacion>2026-03-31T10:15:22.123-05:00</fechaAutorizacion>
	<ambiente>PRUEBAS</ambiente>
	<comprobante>${comprobante}</comprobante>
	<mensajes/>
</autorizacion>`;

const SRI_SOAP = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
<soap:Body>
<ns2:autorizacionComprobanteResponse xmlns:ns2="http://ec.gob.sri.ws.autorizacion">
<RespuestaAutorizacionComprobante>
<claveAccesoConsultada>3103202601179214673900110010010000001231234567816</claveAccesoConsultada>
<numeroComprobantes>2</numeroComprobantes>
<autorizaciones>
<autorizacion><estado>NO AUTORIZADO</estado><mensajes><mensaje><identificador>39</identificador><mensaje>FIRMA INVALIDA</mensaje><tipo>ERROR</tipo></mensaje></mensajes></autorizacion>
<autorizacion><estado>AUTORIZADO</estado><comprobante><![CDATA[<factura id="comprobante" version="1.1.0"/>]]></comprobante></autorizacion>
</autorizaciones>
</RespuestaAutorizacionComprobante>
</ns2:autorizacionComprobanteResponse>
</soap:Body>
</soap:Envelope>`;

const SAT_SOAP = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><ConsultaResponse xmlns="http://tempuri.org/"><ConsultaResult xmlns:a="http://schemas.datacontract.org/2004/07/Sat.Cfdi.Negocio.ConsultaCfdi.Servicio" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><a:CodigoEstatus>S - Comprobante obtenido satisfactoriamente.</a:CodigoEstatus><a:EsCancelable>Cancelable sin aceptación</a:EsCancelable><a:Estado>Vigente</a:Estado><a:EstatusCancelacion i:nil="true"/><a:ValidacionEFOS>200</a:ValidacionEFOS></ConsultaResult></ConsultaResponse></s:Body></s:Envelope>`;

const CFDI_NS = 'http://www.sat.gob.mx/cfd/4';
const TFD_NS = 'http://www.sat.gob.mx/TimbreFiscalDigital';
const CFDI = `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="${CFDI_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${CFDI_NS} http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd" Version="4.0" Serie="A" Folio="01001" Fecha="2026-03-15T12:00:00" SubTotal="1000.00" Moneda="MXN" Total="1160.00" TipoDeComprobante="I" Exportacion="01" MetodoPago="PUE" FormaPago="03" LugarExpedicion="06000">
	<cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
	<cfdi:Receptor Rfc="XAXX010101000" Nombre="PUBLICO EN GENERAL" DomicilioFiscalReceptor="06000" RegimenFiscalReceptor="616" UsoCFDI="S01"/>
	<cfdi:Conceptos>
		<cfdi:Concepto ClaveProdServ="84111506" Cantidad="1" ClaveUnidad="E48" Descripcion="Servicio de facturación &amp; timbrado" ValorUnitario="1000.00" Importe="1000.00" ObjetoImp="02">
			<cfdi:Impuestos><cfdi:Traslados><cfdi:Traslado Base="1000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="160.00"/></cfdi:Traslados></cfdi:Impuestos>
		</cfdi:Concepto>
	</cfdi:Conceptos>
	<cfdi:Impuestos TotalImpuestosTrasladados="160.00"><cfdi:Traslados><cfdi:Traslado Base="1000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="160.00"/></cfdi:Traslados></cfdi:Impuestos>
	<cfdi:Complemento>
		<tfd:TimbreFiscalDigital xmlns:tfd="${TFD_NS}" Version="1.1" UUID="6F1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D" FechaTimbrado="2026-03-15T12:01:00" RfcProvCertif="SAT970701NN3" SelloCFD="abc=" NoCertificadoSAT="30001000000500003456" SelloSAT="def="/>
	</cfdi:Complemento>
</cfdi:Comprobante>`;

/** @import { XmlElement, ToJsonOptions } from '../../nodes/shared/xml' */

/**
 * What `run` threw: an XmlError, or the test fails.
 * @param {() => unknown} run
 * @returns {XmlError}
 */
function refusal(run) {
	try {
		run();
	} catch (error) {
		if (error instanceof XmlError) return error;
		throw error;
	}
	throw new Error('nothing was thrown');
}

/**
 * The child the test expects to be there.
 * @param {XmlElement} element
 * @param {string} local
 * @param {string} [ns]
 */
function the(element, local, ns) {
	const found = child(element, local, ns);
	if (!found) throw new Error(`no <${local}> in <${element.name}>`);
	return found;
}

/**
 * toJson's answer, navigated freely by the assertions.
 * @param {XmlElement} element
 * @param {ToJsonOptions} [options]
 * @returns {any}
 */
const jsonOf = (element, options) => toJson(element, options);

/**
 * The error of parsing `input`, and how long it took (a generous guard only: the target is in no test).
 * @param {string | Buffer} input
 * @param {Parameters<typeof parseXml>[1]} [limits]
 */
function timedRefusal(input, limits) {
	const started = performance.now();
	const error = refusal(() => parseXml(input, limits));
	return { error, ms: performance.now() - started };
}

describe('well-formed documents', () => {
	test('an SRI authorization file whose receipt is in CDATA: the receipt parses again from its text', () => {
		const root = parseXml(autorizacion(`<![CDATA[${FACTURA}]]>`));
		expect(root).toMatchObject({ name: 'autorizacion', local: 'autorizacion', ns: '' });
		expect(childText(root, 'estado')).toBe('AUTORIZADO');
		expect(childText(root, 'mensajes')).toBe('');
		expect(childText(root, 'nada')).toBeUndefined();

		const factura = parseXml(the(root, 'comprobante').text, { maxBytes: SRI_RECEIPT_MAX_BYTES });
		expect(factura.name).toBe('factura');
		expect(factura.attributes).toEqual({ id: 'comprobante', version: '1.1.0' });
		const info = the(factura, 'infoTributaria');
		expect(childText(info, 'nombreComercial')).toBe('Café & Cacao del Austro');
		expect(childText(info, 'secuencial')).toBe('000000123');
		expect(children(the(factura, 'detalles'), 'detalle')).toHaveLength(2);
		expect(descendants(factura, 'descripcion').map((d) => d.text)).toEqual([
			'Café de Loja, 500 g',
			'Cacao "Nacional" <fino de aroma>',
		]);
		expect(descendants(factura, 'valor').map((v) => v.text)).toEqual(['22.50', '15.00', '7.50']);
		expect(childText(the(factura, 'infoFactura'), 'razonSocialComprador')).toBe(
			'Comercial Ñandú Cía. Ltda.',
		);
	});

	test('the same receipt entity-escaped inside <comprobante> gives the same text and the same tree', () => {
		const cdata = the(parseXml(autorizacion(`<![CDATA[${FACTURA}]]>`)), 'comprobante').text;
		const escaped = the(parseXml(autorizacion(escapeText(FACTURA))), 'comprobante').text;
		expect(escaped).toBe(FACTURA);
		expect(escaped).toBe(cdata);
		expect(parseXml(escaped)).toEqual(parseXml(FACTURA));
	});

	test('a SOAP answer of the SRI: qualified names, local names and namespaces; several autorizacion entries', () => {
		const envelope = parseXml(SRI_SOAP);
		expect(envelope).toMatchObject({
			name: 'soap:Envelope',
			local: 'Envelope',
			ns: 'http://schemas.xmlsoap.org/soap/envelope/',
		});
		const body = the(envelope, 'Body', 'http://schemas.xmlsoap.org/soap/envelope/');
		expect(child(envelope, 'Body', 'urn:other')).toBeUndefined();
		const response = the(body, 'autorizacionComprobanteResponse');
		expect(response).toMatchObject({
			name: 'ns2:autorizacionComprobanteResponse',
			ns: 'http://ec.gob.sri.ws.autorizacion',
		});
		// The answer's own elements are unqualified (elementFormDefault unqualified): no namespace.
		const answer = the(response, 'RespuestaAutorizacionComprobante', '');
		expect(childText(answer, 'numeroComprobantes')).toBe('2');
		const entries = descendants(envelope, 'autorizacion');
		expect(entries.map((a) => childText(a, 'estado'))).toEqual(['NO AUTORIZADO', 'AUTORIZADO']);
		expect(childText(entries[1], 'comprobante')).toBe(
			'<factura id="comprobante" version="1.1.0"/>',
		);
		expect(descendants(envelope, 'mensaje').map((m) => m.children.length)).toEqual([3, 0]);
	});

	test('a SOAP answer of the SAT: a default namespace, prefixed children, a prefixed attribute', () => {
		const envelope = parseXml(SAT_SOAP);
		const [response] = descendants(envelope, 'ConsultaResponse', 'http://tempuri.org/');
		expect(response.name).toBe('ConsultaResponse');
		const result = the(response, 'ConsultaResult', 'http://tempuri.org/');
		const a = 'http://schemas.datacontract.org/2004/07/Sat.Cfdi.Negocio.ConsultaCfdi.Servicio';
		expect(childText(result, 'Estado', a)).toBe('Vigente');
		expect(childText(result, 'EsCancelable')).toBe('Cancelable sin aceptación');
		const estatus = the(result, 'EstatusCancelacion', a);
		expect(estatus.attributes).toEqual({ 'i:nil': 'true' });
		expect(attribute(estatus, 'nil')).toBe('true');
		expect(attribute(result, 'a')).toBeUndefined(); // a namespace declaration is not an attribute here
	});

	test('a CFDI 4.0 with cfdi: and tfd: namespaces: the data is in attributes', () => {
		const comprobante = parseXml(CFDI);
		expect(comprobante).toMatchObject({
			name: 'cfdi:Comprobante',
			local: 'Comprobante',
			ns: CFDI_NS,
		});
		expect(attribute(comprobante, 'Total')).toBe('1160.00');
		expect(attribute(comprobante, 'schemaLocation')).toMatch(
			/^http:\/\/www\.sat\.gob\.mx\/cfd\/4 /,
		);
		expect(attribute(the(comprobante, 'Emisor', CFDI_NS), 'Rfc')).toBe('EKU9003173C9');
		const [concepto] = descendants(comprobante, 'Concepto', CFDI_NS);
		expect(attribute(concepto, 'Descripcion')).toBe('Servicio de facturación & timbrado');
		expect(descendants(comprobante, 'Traslado').map((t) => attribute(t, 'Importe'))).toEqual([
			'160.00',
			'160.00',
		]);
		const [timbre] = descendants(comprobante, 'TimbreFiscalDigital', TFD_NS);
		expect(timbre.name).toBe('tfd:TimbreFiscalDigital');
		expect(attribute(timbre, 'UUID')).toBe('6F1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D');
		expect(descendants(comprobante, 'TimbreFiscalDigital', CFDI_NS)).toEqual([]);
	});

	test('comments, processing instructions and whitespace around the root; spaces before the declaration', () => {
		const root = parseXml(
			'\n  <?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<!-- antes --><?xml-stylesheet href="a.xsl"?>\n<a>x<!-- <b>no</b> -->y<?pi z?>z</a>\n<!-- después -->\n',
		);
		expect(root).toEqual({
			name: 'a',
			local: 'a',
			ns: '',
			attributes: {},
			children: [],
			text: 'xyz',
		});
	});

	test('line ends and attribute values are normalized as XML 1.0 says; references keep what they name', () => {
		const root = parseXml('<a b="1\t2\r\n3" c="&#10;&#9;">x\r\ny\rz</a>');
		expect(root.attributes).toEqual({ b: '1 2 3', c: '\n\t' });
		expect(root.text).toBe('x\ny\nz');
	});

	test('the five predefined entities and character references, decimal and hexadecimal, beyond the BMP', () => {
		const root = parseXml(
			`<a t="&lt;&gt;&amp;&apos;&quot;">&lt;&gt;&amp;&apos;&quot; &#233;&#xE9;&#x1F600; <![CDATA[&amp;<b>]]></a>`,
		);
		expect(root.attributes.t).toBe(`<>&'"`);
		expect(root.text).toBe(`<>&'" éé😀 &amp;<b>`);
	});

	test('default namespaces: undeclared with xmlns="", inherited, shadowed; xml: needs no declaration', () => {
		const root = parseXml(
			'<a xmlns="urn:a" xmlns:p="urn:p"><b xml:lang="es"><c xmlns=""><p:d xmlns:p="urn:q"/></c></b><p:e/></a>',
		);
		const b = the(root, 'b', 'urn:a');
		expect(attribute(b, 'lang')).toBe('es');
		const c = the(b, 'c', '');
		expect(the(c, 'd').ns).toBe('urn:q');
		expect(the(root, 'e').ns).toBe('urn:p');
	});

	test('files: a UTF-8 BOM; ISO-8859-1 and windows-1252 when declared; U+FFFD kept when it was really there', () => {
		expect(parseXml(Buffer.from('\uFEFF<a>Ñandú</a>', 'utf8')).text).toBe('Ñandú');
		expect(parseXml('\uFEFF<a>x</a>').text).toBe('x');
		expect(parseXml(Buffer.from('<a>\uFFFD</a>', 'utf8')).text).toBe('\uFFFD');
		const latin1 = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>Peñón</a>', 'latin1');
		expect(parseXml(latin1).text).toBe('Peñón');
		const cp1252 = Buffer.concat([
			Buffer.from("<?xml version='1.0' encoding='windows-1252'?><a>"),
			Buffer.from([0x80, 0x20, 0x93, 0x6f, 0x6b, 0x94, 0x20, 0xf1]),
			Buffer.from('</a>'),
		]);
		expect(parseXml(cp1252).text).toBe('€ “ok” ñ');
	});
});

describe('refused encodings', () => {
	test.each([
		[
			'bytes that are not UTF-8, no declaration',
			Buffer.from('<a>Pe\xf1\xf3n</a>', 'latin1'),
			'the XML is not valid UTF-8 (it declares no encoding, so it must be UTF-8): save it as UTF-8, or declare the encoding it is written in',
		],
		[
			'UTF-16 with its BOM',
			Buffer.from('\uFEFF<a/>', 'utf16le'),
			'the XML is encoded in UTF-16 (or another two-byte encoding), which is not read: save it as UTF-8',
		],
		[
			'UTF-16 without a BOM',
			Buffer.from('<a/>', 'utf16le'),
			'the XML is encoded in UTF-16 (or another two-byte encoding), which is not read: save it as UTF-8',
		],
		[
			'another declared encoding',
			Buffer.from('<?xml version="1.0" encoding="Shift_JIS"?><a/>'),
			'the XML declares the encoding "Shift_JIS", which is not read: only UTF-8, US-ASCII, ISO-8859-1 and windows-1252 are (the SRI and the SAT use UTF-8)',
		],
		[
			'a UTF-8 BOM and another declared encoding',
			Buffer.from('\uFEFF<?xml version="1.0" encoding="ISO-8859-1"?><a/>', 'utf8'),
			'the XML starts with a UTF-8 byte-order mark but declares the encoding "ISO-8859-1"',
		],
	])('%s', (_what, input, message) => {
		const error = refusal(() => parseXml(input));
		expect(error).toBeInstanceOf(XmlError);
		expect(error.message).toBe(message);
	});
});

describe('documents that are not well-formed: refused with what and where', () => {
	test('an end tag that does not match says both tags and both places', () => {
		const error = refusal(() => parseXml('<bar>\n  <a/>\n    </foo>\n</bar>'));
		expect(error).toBeInstanceOf(XmlError);
		expect(error.name).toBe('XmlError');
		expect(error.message).toBe(
			'the XML is not well-formed: the end tag </foo> at line 3, column 5 does not match <bar> (opened at line 1, column 1)',
		);
		expect([error.line, error.column]).toEqual([3, 5]);
	});

	test.each([
		['no root', '  <!-- nada -->  ', 'the document has no root element (line 1, column 18)'],
		[
			'two roots',
			'<a/>\n<b/>',
			'a second root element follows <a>: an XML document has one root (line 2, column 1)',
		],
		[
			'text after the root',
			'<a/>x',
			'there is text or markup after the root element <a> (line 1, column 5)',
		],
		[
			'text before the root',
			'x<a/>',
			'there is text or markup before the root element (line 1, column 1)',
		],
		[
			'an unclosed element',
			'<a><b>\n<c>',
			'the document ends before the element <c> is closed (line 2, column 1)',
		],
		[
			'an unclosed start tag',
			'<a b="1"',
			'the document ends inside the start tag <a> (line 1, column 1)',
		],
		[
			'an unclosed attribute value',
			'<a b="1/>',
			'the value of the attribute b of <a> is never closed (line 1, column 4)',
		],
		[
			'an unclosed comment',
			'<a><!-- x',
			'a comment (<!--) is never closed with --> (line 1, column 4)',
		],
		[
			'an unclosed CDATA section',
			'<a><![CDATA[x',
			'a CDATA section (<![CDATA[) is never closed with ]]> (line 1, column 4)',
		],
		[
			'an unclosed processing instruction',
			'<a><?pi x',
			'a processing instruction (<?) is never closed with ?> (line 1, column 4)',
		],
		[
			'an unquoted attribute',
			'<a b=1/>',
			'the value of the attribute b of <a> is not in quotes (line 1, column 6)',
		],
		[
			'an attribute without a value',
			'<a b/>',
			'the attribute b of <a> has no value (attr="value") (line 1, column 5)',
		],
		[
			'a repeated attribute',
			'<a b="1" b="2"/>',
			'the attribute b appears twice in <a> (line 1, column 10)',
		],
		[
			'attributes not separated',
			'<a b="1"c="2"/>',
			'in the start tag <a>, an attribute must follow a space (line 1, column 9)',
		],
		[
			'"<" in an attribute value',
			'<a b="x<y"/>',
			'the value of the attribute b of <a> contains "<" (write "&lt;") (line 1, column 8)',
		],
		['"--" in a comment', '<a><!-- a -- b --></a>', 'a comment contains "--" (line 1, column 11)'],
		['"]]>" in text', '<a>x]]>y</a>', '"]]>" appears in text (write "]]&gt;") (line 1, column 5)'],
		[
			'a bare "&"',
			'<a>Café & Cacao</a>',
			'"&" must start an entity reference such as &amp; (write "&amp;" for "&") (line 1, column 9)',
		],
		[
			'an undefined entity',
			'<a>&nbsp;</a>',
			'the entity &nbsp; is not defined (only &lt; &gt; &amp; &apos; &quot; and character references are read) (line 1, column 4)',
		],
		[
			'an undefined entity in an attribute',
			'<a b="&xxe;"/>',
			'the entity &xxe; is not defined (only &lt; &gt; &amp; &apos; &quot; and character references are read) (line 1, column 7)',
		],
		[
			'a reference to U+0000',
			'<a>&#0;</a>',
			'the character reference &#0; is not a character XML allows (line 1, column 4)',
		],
		[
			'a reference to a surrogate',
			'<a>&#xD800;</a>',
			'the character reference &#xD800; is not a character XML allows (line 1, column 4)',
		],
		[
			'a reference past Unicode',
			'<a>&#x110000;</a>',
			'the character reference &#x110000; is not a character XML allows (line 1, column 4)',
		],
		[
			'a huge reference',
			'<a>&#99999999999999999999;</a>',
			'the character reference &#99999999999999999999; is not a character XML allows (line 1, column 4)',
		],
		[
			'a malformed reference',
			'<a>&#x;</a>',
			'a character reference (&#…;) is malformed (line 1, column 4)',
		],
		[
			'a name that starts with a digit',
			'<1a/>',
			'an element name was expected, found "1" (line 1, column 2)',
		],
		[
			'a name with two colons',
			'<a:b:c xmlns:a="urn:a"/>',
			'the name "a:b:c" is not a valid qualified name (line 1, column 1)',
		],
		[
			'an unbound element prefix',
			'<a>\n<p:b/></a>',
			'the prefix "p" of <p:b> is not declared (xmlns:p="…") (line 2, column 1)',
		],
		[
			'an unbound attribute prefix',
			'<a p:b="1"/>',
			'the prefix "p" of the attribute p:b is not declared (xmlns:p="…") (line 1, column 4)',
		],
		[
			'a prefix bound to nothing',
			'<a xmlns:p=""/>',
			'the prefix p is declared with an empty namespace, which XML 1.0 does not allow (line 1, column 4)',
		],
		[
			'one attribute twice through two prefixes',
			'<a xmlns:p="urn:x" xmlns:q="urn:x" p:b="1" q:b="2"/>',
			'the attribute b of namespace urn:x appears twice in <a> (line 1, column 44)',
		],
		[
			'a declaration that is not first',
			'<a><?xml version="1.0"?></a>',
			'an XML declaration (<?xml …?>) may only stand at the start of the document (line 1, column 4)',
		],
		[
			'a malformed declaration',
			'<?xml encoding="UTF-8"?><a/>',
			'the XML declaration must read <?xml version="1.0" encoding="…" standalone="…"?> (encoding and standalone optional, in that order) (line 1, column 1)',
		],
		[
			'markup that is no comment or CDATA',
			'<a><!ELEMENT a ANY></a>',
			'"<!" starts no comment or CDATA section (line 1, column 4)',
		],
		[
			'an end tag that is not closed',
			'<a></a',
			'the end tag </a> is not closed with ">" (line 1, column 4)',
		],
	])('%s', (_what, input, message) => {
		const error = refusal(() => parseXml(input));
		expect(error).toBeInstanceOf(XmlError);
		expect(error.message).toBe(`the XML is not well-formed: ${message}`);
	});

	test.each([
		['a control character', '<a>\u0001</a>', 'U+0001', [1, 4]],
		['a lone surrogate', '<a>\n\uD83D</a>', 'U+D83D', [2, 1]],
		['U+FFFF', '<a b="\uFFFF"/>', 'U+FFFF', [1, 7]],
	])('%s is a character XML does not allow', (_what, input, code, [line, column]) => {
		const error = refusal(() => parseXml(input));
		expect(error.message).toBe(
			`the XML contains a character XML does not allow (${code}) (line ${line}, column ${column})`,
		);
		expect([error.line, error.column]).toEqual([line, column]);
	});
});

describe('limits', () => {
	test('the defaults', () => {
		expect(DEFAULT_XML_LIMITS).toEqual({
			maxBytes: 10 * 1024 * 1024,
			maxDepth: 100,
			maxAttributes: 256,
			maxElements: 200000,
			maxNameLength: 1000,
			maxAttributeLength: 1024 * 1024,
		});
		expect(Object.isFrozen(DEFAULT_XML_LIMITS)).toBe(true);
		expect(SRI_RECEIPT_MAX_BYTES).toBe(320 * 1024);
	});

	test('size: in UTF-8 bytes for text, in bytes for a file; the message says both sizes', () => {
		const big = `<a>${'ñ'.repeat(170 * 1024)}</a>`; // 170 K characters, 340 KB
		expect(refusal(() => parseXml(big, { maxBytes: SRI_RECEIPT_MAX_BYTES })).message).toBe(
			'the XML is larger than 320 KB (it has 340.0 KB)',
		);
		expect(
			refusal(() => parseXml(Buffer.from(big), { maxBytes: SRI_RECEIPT_MAX_BYTES })).message,
		).toBe('the XML is larger than 320 KB (it has 340.0 KB)');
		expect(
			parseXml(`<a>${'ñ'.repeat(150 * 1024)}</a>`, { maxBytes: SRI_RECEIPT_MAX_BYTES }).text,
		).toHaveLength(150 * 1024);
	});

	test.each([
		[
			'depth',
			'<a><b><c/></b></a>',
			{ maxDepth: 2 },
			'the XML nests elements deeper than 2 levels (line 1, column 7)',
		],
		[
			'attributes',
			'<a x="1" y="2" z="3"/>',
			{ maxAttributes: 2 },
			'the element <a> has more than 2 attributes (line 1, column 1)',
		],
		[
			'elements',
			'<a><b/><b/></a>',
			{ maxElements: 2 },
			'the XML has more than 2 elements (line 1, column 8)',
		],
		[
			'name length',
			'<abcdef/>',
			{ maxNameLength: 5 },
			'the XML has a name longer than 5 characters (line 1, column 2)',
		],
		[
			'attribute length',
			'<a b="123456"/>',
			{ maxAttributeLength: 5 },
			'the attribute b of <a> is longer than 5 characters (line 1, column 4)',
		],
	])('%s', (_what, input, limits, message) => {
		expect(refusal(() => parseXml(input, limits)).message).toBe(message);
		expect(() => parseXml(input)).not.toThrow();
	});
});

describe('hostile input ends quickly with an XmlError (the elapsed bound is a generous guard)', () => {
	const GUARD_MS = 5000;

	test('50,000 nested elements: refused by depth; with the depth limit lifted, read without exhausting the stack', () => {
		const deep = `${'<a>'.repeat(50000)}x${'</a>'.repeat(50000)}`;
		const { error, ms } = timedRefusal(deep);
		expect(error.message).toBe(
			'the XML nests elements deeper than 100 levels (line 1, column 301)',
		);
		expect(ms).toBeLessThan(GUARD_MS);

		const root = parseXml(deep, { maxDepth: 60000 });
		expect(descendants(root, 'a')).toHaveLength(49999);
		let json = jsonOf(root);
		for (let k = 1; k < 50000; k++) json = json.a;
		expect(json).toBe('x');
	});

	test('a million attributes: refused by size at the default, by the attribute count when larger inputs are allowed', () => {
		const many = `<a ${Array.from({ length: 1e6 }, (_, k) => `a${k}="1"`).join(' ')}/>`;
		const bySize = timedRefusal(many);
		expect(bySize.error.message).toMatch(/^the XML is larger than 10 MB \(it has 1\d\.\d MB\)$/);
		expect(bySize.ms).toBeLessThan(GUARD_MS);
		const byCount = timedRefusal(many, { maxBytes: 100 * 1024 * 1024 });
		expect(byCount.error.message).toBe(
			'the element <a> has more than 256 attributes (line 1, column 1)',
		);
		expect(byCount.ms).toBeLessThan(GUARD_MS);
	});

	test('unclosed tags: 100,000 start tags and nothing else', () => {
		const { error, ms } = timedRefusal('<a>'.repeat(100000), { maxDepth: 1e6 });
		expect(error.message).toBe(
			'the XML is not well-formed: the document ends before the element <a> is closed (line 1, column 299998)',
		);
		expect(ms).toBeLessThan(GUARD_MS);
	});

	test('a 10 MB attribute value, closed and unclosed', () => {
		const value = 'x'.repeat(10_000_000);
		const closed = timedRefusal(`<a b="${value}"/>`);
		expect(closed.error.message).toBe(
			'the attribute b of <a> is longer than 1048576 characters (line 1, column 4)',
		);
		expect(closed.ms).toBeLessThan(GUARD_MS);
		const open = timedRefusal(`<a b="${value}`);
		expect(open.error.message).toBe(
			'the XML is not well-formed: the value of the attribute b of <a> is never closed (line 1, column 4)',
		);
		expect(open.ms).toBeLessThan(GUARD_MS);
	});

	test('a billion laughs: the DOCTYPE is refused, nothing is expanded', () => {
		const entities = Array.from(
			{ length: 9 },
			(_, k) => `<!ENTITY lol${k + 1} "${`&lol${k};`.repeat(10)}">`,
		).join('\n');
		const laughs = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 "lol">\n${entities}\n]>\n<lolz>&lol9;</lolz>`;
		const { error, ms } = timedRefusal(laughs);
		expect(error).toBeInstanceOf(XmlError);
		expect(error.message).toBe(
			'the XML declares a DOCTYPE (line 2, column 1), which is refused: document type definitions and entity declarations are not read, so that a document cannot expand entities or reach other files. Remove the <!DOCTYPE …> declaration',
		);
		expect([error.line, error.column]).toEqual([2, 1]);
		expect(ms).toBeLessThan(GUARD_MS);
	});

	test.each([
		['a file', '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>'],
		['an address', '<!DOCTYPE r SYSTEM "http://127.0.0.1:1/evil.dtd"><r/>'],
		['a parameter entity', '<!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:1/p">%p;]><r/>'],
		['a DOCTYPE inside the root', '<r><!DOCTYPE r></r>'],
	])('an external entity (XXE) through %s: refused before anything is read', (_what, input) => {
		const { error } = timedRefusal(input);
		expect(error.message).toMatch(
			/^the XML declares a DOCTYPE \(line 1, column \d+\), which is refused/,
		);
		// Without a DOCTYPE, the reference is simply undefined.
		expect(refusal(() => parseXml('<r>&xxe;</r>')).message).toMatch(
			/the entity &xxe; is not defined/,
		);
	});

	test('a flood of "&" and of long entity names', () => {
		for (const text of ['&'.repeat(5e6), '&aaaa'.repeat(1e6), `&${'a'.repeat(5e6)};`]) {
			const { error, ms } = timedRefusal(`<a>${text}</a>`);
			expect(error).toBeInstanceOf(XmlError);
			expect(ms).toBeLessThan(GUARD_MS);
		}
	});

	test('a flood of elements stops at the element limit', () => {
		const { error, ms } = timedRefusal(`<a>${'<b/>'.repeat(1e6)}</a>`);
		expect(error.message).toBe('the XML has more than 200000 elements (line 1, column 800000)');
		expect(ms).toBeLessThan(GUARD_MS);
	});
});

describe('toJson', () => {
	const SRI_ARRAYS = ['totalImpuesto', 'pago', 'detalle', 'impuesto', 'campoAdicional'];
	const SRI_NUMBERS = [
		'totalSinImpuestos',
		'totalDescuento',
		'baseImponible',
		'valor',
		'propina',
		'importeTotal',
		'total',
		'cantidad',
		'precioUnitario',
		'descuento',
		'precioTotalSinImpuesto',
		'tarifa',
	];

	test('an SRI receipt: element names kept, repeated elements arrays, listed amounts numbers, codes text', () => {
		const json = jsonOf(parseXml(FACTURA), { arrays: SRI_ARRAYS, numbers: SRI_NUMBERS });
		expect(json).toMatchObject({
			id: 'comprobante',
			version: '1.1.0',
			infoTributaria: {
				ambiente: '1',
				ruc: '1792146739001',
				secuencial: '000000123',
				codDoc: '01',
				nombreComercial: 'Café & Cacao del Austro',
			},
			infoFactura: {
				totalSinImpuestos: 150,
				totalDescuento: 0,
				totalConImpuestos: {
					totalImpuesto: [{ codigo: '2', codigoPorcentaje: '4', baseImponible: 150, valor: 22.5 }],
				},
				importeTotal: 172.5,
				pagos: { pago: [{ formaPago: '20', total: 172.5 }] },
			},
			infoAdicional: { campoAdicional: [{ nombre: 'Email', '#text': 'compras@nandu.ec' }] },
		});
		expect(json.detalles.detalle).toHaveLength(2);
		expect(json.detalles.detalle[1]).toEqual({
			codigoPrincipal: 'CAC-02',
			descripcion: 'Cacao "Nacional" <fino de aroma>',
			cantidad: 5,
			precioUnitario: 10,
			descuento: 0,
			precioTotalSinImpuesto: 50,
			impuestos: {
				impuesto: [
					{ codigo: '2', codigoPorcentaje: '4', tarifa: 15, baseImponible: 50, valor: 7.5 },
				],
			},
		});
	});

	test('a CFDI: local names without prefixes, attributes as properties, namespace declarations dropped', () => {
		const json = jsonOf(parseXml(CFDI), {
			arrays: ['Concepto', 'Traslado', 'Retencion'],
			numbers: [
				'SubTotal',
				'Total',
				'Importe',
				'Base',
				'TasaOCuota',
				'Cantidad',
				'ValorUnitario',
				'TotalImpuestosTrasladados',
			],
		});
		expect(Object.keys(json)).not.toContain('xmlns:cfdi');
		expect(Object.keys(json).filter((k) => k.startsWith('xmlns'))).toEqual([]);
		expect(json).toMatchObject({
			schemaLocation: expect.stringMatching(/cfdv40\.xsd$/),
			Version: '4.0',
			Folio: '01001',
			SubTotal: 1000,
			Total: 1160,
			Emisor: { Rfc: 'EKU9003173C9', Nombre: 'ESCUELA KEMPER URGATE', RegimenFiscal: '601' },
			Receptor: { Rfc: 'XAXX010101000', UsoCFDI: 'S01' },
			Conceptos: {
				Concepto: [
					{
						ClaveProdServ: '84111506',
						Cantidad: 1,
						Descripcion: 'Servicio de facturación & timbrado',
						Importe: 1000,
						Impuestos: {
							Traslados: {
								Traslado: [{ Base: 1000, Impuesto: '002', TasaOCuota: 0.16, Importe: 160 }],
							},
						},
					},
				],
			},
			Impuestos: { TotalImpuestosTrasladados: 160 },
			Complemento: {
				TimbreFiscalDigital: { UUID: '6F1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D', Version: '1.1' },
			},
		});
	});

	test('leaves are their trimmed text; an empty element is ""; a name that repeats is an array without being listed', () => {
		expect(jsonOf(parseXml('<a>\n  <b> x </b><c/><d>1</d><d>2</d>\n</a>'))).toEqual({
			b: 'x',
			c: '',
			d: ['1', '2'],
		});
		expect(jsonOf(parseXml('<a> text only </a>'))).toBe('text only');
	});

	test('nothing is dropped: text beside children, an attribute named like a child, two attributes with one local name', () => {
		expect(jsonOf(parseXml('<a>x<b>1</b>y</a>'))).toEqual({ b: '1', '#text': 'xy' });
		expect(jsonOf(parseXml('<a b="attr"><b>child</b></a>'))).toEqual({ '@b': 'attr', b: 'child' });
		expect(jsonOf(parseXml('<a xmlns:p="urn:p" xmlns:q="urn:q" p:x="1" q:x="2" y="3"/>'))).toEqual({
			'@p:x': '1',
			'@q:x': '2',
			y: '3',
		});
		expect(jsonOf(parseXml('<a v="1">t</a>'), { textKey: 'value' })).toEqual({
			v: '1',
			value: 't',
		});
		expect(jsonOf(parseXml('<a value="1">t</a>'), { textKey: 'value' })).toEqual({
			'@value': '1',
			value: 't',
		});
	});

	test('"__proto__" is a name like any other: an own property, the prototype untouched', () => {
		const json = jsonOf(
			parseXml('<a __proto__="1"><__proto__>2</__proto__><b __proto__="3"/></a>'),
		);
		expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
		expect(Object.keys(json)).toEqual(['@__proto__', '__proto__', 'b']);
		expect(json.b.__proto__).toBe('3');
		expect(Object.getPrototypeOf(json.b)).toBe(Object.prototype);
		expect(Object.getPrototypeOf(parseXml('<a __proto__="1"/>').attributes)).toBe(Object.prototype);
	});

	test.each([
		['1', 1],
		['-12.50', -12.5],
		['0.000001', 0.000001],
		['007', 7],
		['1160.000000', 1160],
		['-0.00', 0],
		['12345678901234567890', '12345678901234567890'],
		['1e5', '1e5'],
		['.5', '.5'],
		['1,000.00', '1,000.00'],
		['+1', '+1'],
		['', ''],
		[' 2 ', 2],
	])('a listed value %j is %j', (text, value) => {
		expect(jsonOf(parseXml(`<a><n>${text}</n><s>${text}</s></a>`), { numbers: ['n'] })).toEqual({
			n: value,
			s: text.trim(),
		});
		expect(jsonOf(parseXml(`<a n="${text}"/>`), { numbers: new Set(['n']) })).toEqual({
			n: typeof value === 'number' ? value : text,
		});
	});
});

describe('withUtf8Declaration and xmlText (what Issue From XML hands on)', () => {
	test('a declaration naming another encoding is made to say UTF-8; anything else is left as it is', () => {
		expect(withUtf8Declaration(`<?xml version="1.0" encoding="ISO-8859-1"?><a>ñ</a>`)).toBe(
			`<?xml version="1.0" encoding="UTF-8"?><a>ñ</a>`,
		);
		expect(
			withUtf8Declaration(`<?xml version='1.0' encoding = 'windows-1252' standalone='yes'?><a/>`),
		).toBe(`<?xml version='1.0' encoding = "UTF-8" standalone='yes'?><a/>`);
		for (const same of [
			'<?xml version="1.0" encoding="utf-8"?><a/>',
			'<?xml version="1.0" encoding="UTF8"?><a/>',
			'<?xml version="1.0"?><a/>',
			'<a encoding="ISO-8859-1"/>',
		])
			expect(withUtf8Declaration(same)).toBe(same);
	});

	test('xmlText decodes as parseXml does, and refuses what parseXml refuses', () => {
		const latin = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>Peñón</a>', 'latin1');
		expect(xmlText(latin, 1024)).toBe('<?xml version="1.0" encoding="ISO-8859-1"?><a>Peñón</a>');
		expect(() => xmlText(Buffer.from('<a>Peñón</a>', 'latin1'), 1024)).toThrow(/not valid UTF-8/);
		expect(() => xmlText(Buffer.from('<a/>'), 2)).toThrow(/larger than 2 bytes/);
	});
});
