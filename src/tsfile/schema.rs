//! Table schemas of v4 TsFileMetadata: each column's name, data type, encodings and
//! category (TAG, FIELD, ATTRIBUTE, TIME).

use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnSchema {
    pub name: Option<Vec<u8>>,
    pub data_type: u8,
    pub encoding: u8,
    pub compression: u8,
    /// The column's properties, key and value (either may be null).
    pub props: Vec<super::Property>,
    /// 0 TAG, 1 FIELD, 2 ATTRIBUTE, 3 TIME.
    pub category: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSchema {
    pub table_name: Option<Vec<u8>>,
    pub columns: Vec<ColumnSchema>,
}

/// The category's name as the writers' enums spell it.
pub fn category_name(category: i32) -> &'static str {
    usize::try_from(category).ok().and_then(|i| CATEGORIES.get(i)).copied().unwrap_or("UNKNOWN")
}

/// The column categories by their code (`ColumnCategory`'s ordinal).
pub const CATEGORIES: [&str; 4] = ["TAG", "FIELD", "ATTRIBUTE", "TIME"];

/// A column's data type by name, or `UNKNOWN(n)` for a byte no writer uses.
pub fn data_type_name(byte: u8) -> String {
    match super::DataType::from_byte(byte) {
        Some(d) => d.as_str().to_string(),
        None => format!("UNKNOWN({byte})"),
    }
}

pub(super) fn parse_columns(c: &mut Cursor<'_>) -> Result<Vec<ColumnSchema>> {
    // name (4) + 3 type bytes + props count (4) + category (4).
    let n = c.count("column count", 15)?;
    let mut columns = Vec::with_capacity(n);
    for _ in 0..n {
        let name = c.istr("column name")?.map(<[u8]>::to_vec);
        let data_type = c.u8("column data type")?;
        let encoding = c.u8("column encoding")?;
        let compression = c.u8("column compression")?;
        let at = c.offset();
        let props_count = c.i32_be("column props count")?;
        if props_count < 0 || props_count as u64 * 8 > c.remaining() as u64 {
            return Err(Error::new(
                ErrorKind::BadCount,
                at,
                format!("column props count {props_count} is impossible here"),
            ));
        }
        let mut props = Vec::new();
        for _ in 0..props_count {
            let k = c.istr("column prop key")?.map(<[u8]>::to_vec);
            let v = c.istr("column prop value")?.map(<[u8]>::to_vec);
            props.push((k, v));
        }
        let category = c.i32_be("column category")?;
        columns.push(ColumnSchema { name, data_type, encoding, compression, props, category });
    }
    Ok(columns)
}
