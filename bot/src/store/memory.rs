//! What platform adapters remember between restarts (`adapter_memory`; see
//! `migrations/0002_adapter_memory.sql`).

use super::db::{on_pool, Dialect};
use super::{Store, StoreError};
use crate::time::Millis;

impl Store {
    /// Stores (or replaces) an adapter's record `kind`/`key` on `platform`.
    pub async fn remember(
        &self,
        platform: &str,
        kind: &str,
        key: &str,
        value: &str,
        now: Millis,
    ) -> Result<(), StoreError> {
        on_pool!(&self.writer, db => sqlx::query(db.sql(
            "INSERT INTO adapter_memory (platform, kind, key, value, updated_at) \
             VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, kind, key) \
             DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        ))
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .bind(key.to_owned())
        .bind(value.to_owned())
        .bind(now)
        .execute(db)
        .await?
        .rows_affected());
        Ok(())
    }

    /// An adapter's record, if stored.
    pub async fn recall(
        &self,
        platform: &str,
        kind: &str,
        key: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_scalar::<_, String>(db.sql(
            "SELECT value FROM adapter_memory WHERE platform = ? AND kind = ? AND key = ?",
        ))
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .bind(key.to_owned())
        .fetch_optional(db)
        .await?),
        )
    }

    /// Every record of `kind` on `platform` as `(key, value)`, oldest first
    /// (an adapter loads its memory at start).
    pub async fn recall_all(
        &self,
        platform: &str,
        kind: &str,
    ) -> Result<Vec<(String, String)>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_as::<_, (String, String)>(db.sql(
            "SELECT key, value FROM adapter_memory WHERE platform = ? AND kind = ? \
             ORDER BY updated_at, key",
        ))
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .fetch_all(db)
        .await?),
        )
    }

    /// Forgets one record (nothing happens when it is not stored).
    pub async fn forget(&self, platform: &str, kind: &str, key: &str) -> Result<(), StoreError> {
        on_pool!(&self.writer, db => sqlx::query(db.sql("DELETE FROM adapter_memory WHERE platform = ? AND kind = ? AND key = ?"))
            .bind(platform.to_owned())
            .bind(kind.to_owned())
            .bind(key.to_owned())
            .execute(db)
            .await?
            .rows_affected());
        Ok(())
    }

    /// Forgets the records of `kind` last written before `cutoff`; returns how many.
    pub async fn forget_older(
        &self,
        platform: &str,
        kind: &str,
        cutoff: Millis,
    ) -> Result<u64, StoreError> {
        let result = on_pool!(&self.writer, db => sqlx::query(db.sql(
            "DELETE FROM adapter_memory WHERE platform = ? AND kind = ? AND updated_at < ?",
        ))
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .bind(cutoff)
        .execute(db)
        .await?
        .rows_affected());
        Ok(result)
    }
}
