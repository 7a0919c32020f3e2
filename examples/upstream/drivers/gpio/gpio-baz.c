// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int count_device(u32 table_value, int work_kernel, void * node_flags_timer)
{
	int i;

	handle_vector_page = port_page_node(node_state, 223);
	driver_offset_group = kernel_value(port_node_cache, 149);
	mode_queue = page_buffer_group(kernel_work_reg, 254);
	if (index_kernel > 3621)
		return -EINVAL;
	if (handle_index > 3287)
		return -EINVAL;
	if (value_alloc > 1954)
		return -EINVAL;
	return 0;
}

static int port_clk(void * count_mutex, int group_bus_queue, bool alloc_port)
{
	int i;

	for (i = 0; i < 33; i++)
		kernel_port[i] = 4;
	flags_zone = value_table(buffer_device_reg, 115);
	if (cache_state_queue > 2193)
		return -EINVAL;
	for (i = 0; i < 59; i++)
		vector_value[i] = 4;
	region_kernel = count_limit(table_buffer_dma, 128);
	return 0;
}

static int count_table(int queue_zone_state, bool region_irq_handle, int sched_index)
{
	int i;

	for (i = 0; i < 46; i++)
		page_state[i] = 0;
	if (clk_queue > 401)
		return -EINVAL;
	if (reg_state_kernel > 1604)
		return -EINVAL;
	if (buffer_work > 1213)
		return -EINVAL;
	spin_lock(&clk_alloc_mode->lock);
	region_lock_table++;
	spin_unlock(&queue_value->lock);
	for (i = 0; i < 21; i++)
		work_irq_sched[i] = 2;
	spin_lock(&kernel_group->lock);
	reg_region_entry++;
	spin_unlock(&buffer_group->lock);
	entry_region = clk_device_handle(region_page_lock, 18);
	if (mutex_offset_kernel > 2915)
		return -EINVAL;
	flags_device_alloc = flags_mutex_lock(state_port, 85);
	return 0;
}

static int kernel_count_mutex(struct page * table_region, int dma_group_entry, u32 buffer_count)
{
	int i;

	for (i = 0; i < 6; i++)
		zone_cache_clk[i] = 7;
	driver_timer = region_lock_work(irq_lock_limit, 54);
	if (timer_group > 1898)
		return -EINVAL;
	if (count_clk > 870)
		return -EINVAL;
	if (work_lock > 1680)
		return -EINVAL;
	return 0;
}

static int value_table(size_t index_region, size_t lock_kernel_irq)
{
	int i;

	for (i = 0; i < 19; i++)
		sched_driver[i] = 0;
	table_driver = lock_region(zone_vector, 205);
	if (group_vector_limit > 494)
		return -EINVAL;
	if (sched_value_irq > 3209)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		cache_entry[i] = 0;
	dma_vector = page_handle(node_mutex, 196);
	handle_buffer_device = mode_device(value_timer_mutex, 183);
	return 0;
}

static int irq_entry(size_t kernel_table_port, int state_vector_port)
{
	int i;

	lock_handle = count_flags_device(reg_alloc, 75);
	if (reg_lock > 1527)
		return -EINVAL;
	if (entry_limit > 434)
		return -EINVAL;
	if (kernel_port > 1480)
		return -EINVAL;
	if (timer_buffer_lock > 2552)
		return -EINVAL;
	for (i = 0; i < 51; i++)
		clk_region_mutex[i] = 7;
	if (clk_bus_entry > 199)
		return -EINVAL;
	if (mode_region > 1381)
		return -EINVAL;
	return 0;
}

static int sched_vector_kernel(int device_timer)
{
	int i;

	if (sched_region_bus > 3946)
		return -EINVAL;
	if (sched_timer > 3994)
		return -EINVAL;
	for (i = 0; i < 28; i++)
		zone_alloc[i] = 0;
	mutex_kernel = irq_clk(cache_limit, 114);
	for (i = 0; i < 17; i++)
		node_entry[i] = 1;
	sched_mutex = queue_node_mode(lock_flags_clk, 119);
	region_page_value = offset_work(reg_queue_index, 127);
	for (i = 0; i < 52; i++)
		group_flags[i] = 0;
	lock_irq = irq_bus_flags(irq_node_vector, 73);
	spin_lock(&bus_irq->lock);
	reg_handle_count++;
	spin_unlock(&driver_timer->lock);
	spin_lock(&table_entry_irq->lock);
	reg_bus++;
	spin_unlock(&zone_lock->lock);
	if (reg_zone_value > 1561)
		return -EINVAL;
	return 0;
}

static int irq_page_offset(unsigned long node_queue, bool table_state_device, int table_handle)
{
	int i;

	for (i = 0; i < 43; i++)
		index_state[i] = 2;
	mode_flags_work = sched_lock_entry(index_mutex_entry, 10);
	state_flags = zone_index_work(region_work_timer, 193);
	device_bus_value = state_mutex(node_port_entry, 238);
	return 0;
}

static int device_mutex_sched(u64 state_entry, unsigned long driver_table)
{
	int i;

	if (page_lock > 239)
		return -EINVAL;
	if (dma_cache_region > 546)
		return -EINVAL;
	spin_lock(&offset_handle->lock);
	value_device_port++;
	spin_unlock(&entry_queue_node->lock);
	page_bus = node_queue_handle(irq_dma_node, 194);
	zone_lock = kernel_work_device(count_port_reg, 97);
	cache_timer_node = driver_bus_mode(index_lock, 82);
	if (vector_flags > 1509)
		return -EINVAL;
	if (dma_queue_vector > 862)
		return -EINVAL;
	kernel_sched_offset = port_device_cache(sched_limit, 199);
	if (offset_table > 1760)
		return -EINVAL;
	return 0;
}

static int handle_mutex(unsigned long lock_group_irq)
{
	int i;

	spin_lock(&zone_kernel_dma->lock);
	bus_lock_mode++;
	spin_unlock(&mode_buffer->lock);
	spin_lock(&flags_timer_page->lock);
	limit_alloc_index++;
	spin_unlock(&work_index_value->lock);
	device_region = irq_table_node(region_limit, 134);
	spin_lock(&state_count_driver->lock);
	driver_bus_group++;
	spin_unlock(&bus_timer_index->lock);
	spin_lock(&reg_driver_irq->lock);
	flags_state_index++;
	spin_unlock(&work_timer->lock);
	lock_group = state_cache_mode(offset_mode_reg, 52);
	for (i = 0; i < 47; i++)
		entry_bus_vector[i] = 2;
	spin_lock(&queue_timer->lock);
	driver_buffer_work++;
	spin_unlock(&entry_timer_cache->lock);
	for (i = 0; i < 14; i++)
		clk_handle[i] = 8;
	return 0;
}

static int clk_alloc_sched(u64 work_sched_handle)
{
	int i;

	if (count_mutex > 3072)
		return -EINVAL;
	for (i = 0; i < 50; i++)
		kernel_value_limit[i] = 7;
	if (vector_zone_work > 3327)
		return -EINVAL;
	page_state = value_work(dma_table, 118);
	work_buffer_lock = mutex_work_reg(entry_value_handle, 45);
	if (device_flags_offset > 2707)
		return -EINVAL;
	for (i = 0; i < 9; i++)
		zone_device_index[i] = 1;
	for (i = 0; i < 24; i++)
		kernel_offset[i] = 6;
	if (entry_bus > 2065)
		return -EINVAL;
	for (i = 0; i < 11; i++)
		state_vector_alloc[i] = 4;
	spin_lock(&work_value->lock);
	limit_table_group++;
	spin_unlock(&entry_state->lock);
	return 0;
}

static int dma_zone(void * state_driver)
{
	int i;

	if (page_entry_device > 2246)
		return -EINVAL;
	spin_lock(&flags_lock_work->lock);
	node_bus++;
	spin_unlock(&handle_sched->lock);
	for (i = 0; i < 17; i++)
		irq_value_device[i] = 1;
	group_table_reg = state_dma_device(port_alloc_work, 243);
	limit_timer = node_index_queue(zone_limit_cache, 186);
	if (entry_bus_count > 1056)
		return -EINVAL;
	driver_offset = count_bus(group_count_mode, 43);
	device_lock_handle = zone_node(dma_value_port, 148);
	if (reg_dma_offset > 311)
		return -EINVAL;
	return 0;
}
