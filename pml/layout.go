package pml

import "gompi/layout"

// Layout is what the C fast path (capi/fastpath.h) shares with the pml: the
// match header it writes and reads in ring records, the record tag of an
// eager message and the header flags it must see clear.
func Layout() ([]layout.Const, []layout.Struct) {
	return []layout.Const{
			{Name: "GOMPI_PML_TAG_MATCH", Value: int64(tagMatch), Comment: "pml.tagMatch"},
			{Name: "GOMPI_PML_FLAG_SYNC", Value: int64(flagSync), Comment: "pml.flagSync"},
			{Name: "GOMPI_PML_FLAG_GET", Value: int64(flagGet), Comment: "pml.flagGet"},
			{Name: "GOMPI_PML_FLAG_BUSY", Value: int64(flagBusy), Comment: "pml.flagBusy"},
			{Name: "GOMPI_PML_MATCH_HDR_LEN", Value: int64(matchHdrLen), Comment: "pml.matchHdrLen"},
		}, []layout.Struct{
			layout.Of("gompi_match_hdr", matchHdr{}, map[string]string{"_": "pad"}, "pml.matchHdr: starts every matchable fragment"),
		}
}
